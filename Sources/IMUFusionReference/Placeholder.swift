// The Double reference filter (filled in by the fusion work).
