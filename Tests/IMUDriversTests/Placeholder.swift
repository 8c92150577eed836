import Testing
@testable import IMUDrivers
