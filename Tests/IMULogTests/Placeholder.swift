import Testing
@testable import IMULog
