import Testing
@testable import IMUCommands
