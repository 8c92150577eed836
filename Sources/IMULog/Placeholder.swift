// Log reading (filled in by the log work).
