import Testing
@testable import IMUFusion
