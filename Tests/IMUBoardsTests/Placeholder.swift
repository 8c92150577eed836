import Testing
@testable import IMUBoards
