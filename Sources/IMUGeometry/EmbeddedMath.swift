// Embedded Swift (the firmware build, Scripts/check-firmware.sh) has no Glibc module: the C
// library's double-precision functions this module uses are declared here directly. On the
// microcontroller they are newlib's libm (soft float); the Linux build never compiles this.
#if hasFeature(Embedded)
@_extern(c, "sin") func sin(_ x: Double) -> Double
@_extern(c, "cos") func cos(_ x: Double) -> Double
@_extern(c, "asin") func asin(_ x: Double) -> Double
@_extern(c, "acos") func acos(_ x: Double) -> Double
@_extern(c, "atan2") func atan2(_ y: Double, _ x: Double) -> Double
#endif
