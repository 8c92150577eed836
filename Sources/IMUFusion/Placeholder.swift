// The fixed-point fusion core (filled in by the fusion work).
