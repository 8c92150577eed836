/// Integer-only elementary functions on the fixed-point formats: square roots, reciprocal
/// square roots, `atan2`, `sin`/`cos` and division. No tables (a global array would be
/// allocated on first use, which Embedded firmware must not do): polynomials and Newton steps
/// whose coefficients are integer literals. Each function documents its accuracy in LSB, as
/// measured against Double over its whole domain by the tests.
public enum FixedMath {}
