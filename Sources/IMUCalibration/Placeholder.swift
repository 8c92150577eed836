// Calibration fits and files (filled in by the calibration work).
