import IMUBoards
import IMUBus
import IMUTwin
import Testing
@testable import IMUDrivers

/// The parts table: one row per model, the twin and the probe walking it.
@Suite struct ChipPartsTests {
    @Test func everyModelHasOneRowAndATwin() {
        for model in ChipModel.allCases {
            #expect(ChipParts.all.filter { $0.model == model }.count == 1, "\(model.rawValue)")
            #expect(model.part.identities.first?.clone == nil, "the maker's own value comes first")
            let clock = VirtualClock()
            let board = VirtualBoard(chip: model, clock: clock)
            #expect(board.chips[model.part.addresses[0]] != nil, "\(model.rawValue) has no twin")
        }
    }

    /// Probe's identity table is the parts' identities plus other families: every accepted
    /// value names its row's part, and no value means two things at one address.
    @Test func knownPartsComeFromTheTable() {
        for part in ChipParts.all {
            for identity in part.identities {
                for address in part.addresses {
                    #expect(KnownParts.name(register: part.whoAmIRegister, value: identity.value, at: address) == identity.part)
                }
            }
        }
        var seen = Set<[UInt8]>()
        for entry in KnownParts.entries {
            for address in entry.addresses {
                #expect(seen.insert([address, entry.register, entry.value]).inserted, "\(hex(address)) \(hex(entry.value))")
            }
        }
    }

    /// The twin answers with the table's values (the emulators hold none of their own).
    @Test(arguments: ChipModel.allCases)
    func theTwinAnswersWithTheTablesIdentity(_ model: ChipModel) throws {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: model, clock: clock)
        let part = model.part
        #expect(try board.bus.readRegister(part.addresses[0], part.whoAmIRegister) == part.identities[0].value)
    }

    /// A scan of the MPU-9250's twin finds its AK8963 from the row (behind the bypass, not seen).
    @Test func theSurveyGivesTheMPU9250ItsMagnetometer() throws {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: .mpu9250, clock: clock)
        let survey = try BusSurvey.survey(board.bus)
        #expect(survey.addresses == [0x68])
        #expect(survey.chips == [FoundChip(model: .mpu9250, address: 0x68, magnetometerAddress: 0x0C)])
        let clone = try BusSurvey.survey(VirtualBoard(chip: .mpu6500, clock: clock, whoAmI: 0x75).bus)
        #expect(clone.chips.first?.part == "MPU-6500 clone" && clone.chips.first?.clone?.contains("0x75") == true)
        let unknown = try BusSurvey.survey(VirtualBoard(chip: .mpu6500, clock: clock, whoAmI: 0x98).bus)
        #expect(unknown.chips.isEmpty && unknown.unsupported.isEmpty && unknown.addresses == [0x68])
    }
}
