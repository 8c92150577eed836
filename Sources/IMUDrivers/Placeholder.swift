// Filled in by its layer's work.
