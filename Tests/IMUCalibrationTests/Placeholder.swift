import Testing
@testable import IMUCalibration
