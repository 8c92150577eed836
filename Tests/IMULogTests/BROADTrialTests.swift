import Foundation
import IMUGeometry
import Testing
@testable import IMULog

/// The shared BROAD trial reader: units converted to the project's, truth nil where `nan`.
@Suite struct BROADTrialTests {
    static let header = "t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,mag_x,mag_y,mag_z,movement,q_w,q_x,q_y,q_z"

    @Test("a row: acc to Core Motion g (−acc/9.81), gyro and mag as recorded, truth normalised")
    func conversion() throws {
        let trial = try BROADTrial.parse(
            """
            \(Self.header)
            0.000000,0.1,-0.2,0.3,0.0981,-0.1962,9.81,20,-5,-40,0,nan,nan,nan,nan
            0.003500,0.1,-0.2,0.3,0,0,9.81,20,-5,-40,1,2,0,0,0

            """, name: "02_test")
        #expect(trial.name == "02_test")
        #expect(trial.rows.count == 2)
        let row = trial.rows[0]
        #expect(row.t == 0)
        #expect(row.rotationRate == Vector3(0.1, -0.2, 0.3))
        #expect(abs(row.acceleration.x - -0.01) < 1e-15 && abs(row.acceleration.y - 0.02) < 1e-15)
        #expect(row.acceleration.z == -1, "lying still, face up: z = −1 g, as Core Motion")
        #expect(row.magneticField == Vector3(20, -5, -40))
        #expect(!row.movement && row.truth == nil)
        #expect(trial.rows[1].movement)
        #expect(trial.rows[1].truth == .identity)
        #expect(trial.rows[1].sample.magneticField == Vector3(20, -5, -40))
        #expect(abs(trial.samplePeriod - 0.0035) < 1e-12)
    }

    @Test("columns are found by name")
    func columnOrder() throws {
        let trial = try BROADTrial.parse(
            "q_w,q_x,q_y,q_z,movement,mag_x,mag_y,mag_z,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,t\n1,0,0,0,1,1,2,3,0,0,9.81,4,5,6,0.5\n",
            name: "shuffled")
        #expect(trial.rows[0].t == 0.5 && trial.rows[0].rotationRate == Vector3(4, 5, 6) && trial.rows[0].magneticField == Vector3(1, 2, 3))
    }

    @Test("a bad value in a sensor column is an error with file:line and column, not a skipped row")
    func badValue() throws {
        let error = try #require(throws: LogError.self) {
            try BROADTrial.parse("\(Self.header)\n0,0,0,0,0,0,nan,0,0,0,1,1,0,0,0\n", name: "trial.csv")
        }
        #expect("\(error)" == "trial.csv:2: column acc_z: expected a finite number, got \"nan\"")
    }

    @Test("a header without the truth columns names what is missing")
    func badHeader() throws {
        let error = try #require(throws: LogError.self) {
            try BROADTrial.parse("t,gyr_x,gyr_y,gyr_z,acc_x,acc_y,acc_z,mag_x,mag_y,mag_z,movement\n", name: "trial.csv")
        }
        #expect(error.line == 1)
        #expect(error.message.hasSuffix("missing q_w, q_x, q_y, q_z"))
    }

    @Test("movement must be 0 or 1")
    func movementFlag() throws {
        let error = try #require(throws: LogError.self) {
            try BROADTrial.parse("\(Self.header)\n0,0,0,0,0,0,9.81,0,0,0,2,1,0,0,0\n", name: "trial.csv")
        }
        #expect("\(error)" == "trial.csv:2: column movement: expected 0 or 1, got \"2\"")
    }
}
