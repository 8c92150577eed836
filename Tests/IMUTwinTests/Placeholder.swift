import Testing
@testable import IMUTwin
