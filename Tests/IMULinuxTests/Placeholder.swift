import Testing
@testable import IMULinux
