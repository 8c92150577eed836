import IMUBus
import IMUEvents
import IMUKit
import IMUTwin
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// `--low-power` end to end on the twin: idle (the chip in its low-power mode, nothing read) →
/// a shake → the chip's motion interrupt → the INT edge on the virtual GPIO chip → the
/// full-rate loop recognises the shake → idle again.
@Suite struct LowPowerWatchTests {
    /// What the chip's registers must say while the loop is idle: (address, register, expected
    /// value, what it means), and the rate the emulator samples at.
    static let lowPowerRegisters: [String: (registers: [(UInt8, UInt8, UInt8, String)], rateHz: Double)] = [
        "gy-521": ([
            (0x68, MPU6050Registers.powerManagement1, 0x28, "PWR_MGMT_1: CYCLE and TEMP_DIS, not asleep"),
            (0x68, MPU6050Registers.powerManagement2, 0x87, "PWR_MGMT_2: LP_WAKE_CTRL 20 Hz, gyros in standby"),
            (0x68, MPU6050Registers.interruptEnable, MPU6050Registers.motionInterrupt, "INT_ENABLE: MOT_EN only"),
            (0x68, MPU6050Registers.motionThreshold, 250, "MOT_THR: 0.5 g at 2 mg per LSB"),
        ], 20),
        // The 6500 map's wake-on-motion (PS-MPU-9250 §6.1): LP_ACCEL_ODR 15.63 Hz is the
        // nearest to the watch's 20 Hz; the AK8963 powered down (CNTL1, behind the bypass).
        "gy-9250": ([
            (0x68, MPU6050Registers.powerManagement1, 0x28, "PWR_MGMT_1: CYCLE and PD_PTAT, not asleep"),
            (0x68, MPU6050Registers.powerManagement2, 0x07, "PWR_MGMT_2: gyros disabled"),
            (0x68, MPU6500Registers.lowPowerAccelRate, 6, "LP_ACCEL_ODR: 15.63 Hz"),
            (0x68, MPU6050Registers.interruptEnable, MPU6050Registers.motionInterrupt, "INT_ENABLE: WOM_EN only"),
            (0x68, MPU6500Registers.motionDetectControl, 0xC0, "MOT_DETECT_CTRL: ACCEL_INTEL_EN and MODE"),
            (0x68, MPU6500Registers.wakeOnMotionThreshold, 125, "WOM_THR: 0.5 g at 4 mg per LSB"),
            (0x0C, AK8963Registers.control1, 0x00, "AK8963 CNTL1: power-down"),
        ], 15.63),
        // The ICM-20948 (DS-000189 §8.3–8.5, §10.12): LP_EN and TEMP_DIS, the gyros disabled, the
        // accelerometer duty-cycled at 1.125 kHz / (1 + 55) (the divider nearest 20 Hz), WOM
        // only; the AK09916 powered down (CNTL2, behind the bypass). Bank 0 only: reading bank 2
        // here would switch banks under the driver.
        "icm20948": ([
            (0x68, ICM20948Registers.powerManagement1, 0x29, "PWR_MGMT_1: LP_EN, TEMP_DIS, CLKSEL 1, not asleep"),
            (0x68, ICM20948Registers.powerManagement2, 0x07, "PWR_MGMT_2: gyros disabled"),
            (0x68, ICM20948Registers.lowPowerConfig, 0x20, "LP_CONFIG: ACCEL_CYCLE"),
            (0x68, ICM20948Registers.interruptEnable, ICM20948Registers.wakeOnMotionInterrupt, "INT_ENABLE: WOM_INT_EN only"),
            (0x0C, AK09916Registers.control2, 0x00, "AK09916 CNTL2: power-down"),
        ], 1125.0 / 56),
        "sim": ([
            (0x6A, LSM9DS1Registers.control1G, 0x00, "CTRL_REG1_G: gyro powered down"),
            (0x6A, LSM9DS1Registers.int1Control, LSM9DS1Registers.int1IGXL, "INT1_CTRL: INT1_IG_XL only"),
            (0x6A, LSM9DS1Registers.interruptGeneratorConfigurationXL, 0x2A, "INT_GEN_CFG_XL: high on X, Y or Z"),
            (0x6A, LSM9DS1Registers.interruptThresholdXL, 32, "INT_GEN_THS_X_XL: 0.5 g at ±4 g / 256"),
            (0x1C, LSM9DS1Registers.magnetometerControl3, 0x03, "CTRL_REG3_M: magnetometer powered down"),
        ], 10),
        // The LSM6DSOX's wake-up (DS12814 §9.67–9.70): the accelerometer alone in low-power mode
        // at 26 Hz (the nearest to 20 Hz), WK_THS 4 (0.5 g / 2 for the slope filter, at ±4 g / 64),
        // latched on INT1; the LIS3MDL powered down.
        "lsm6dsox-lis3mdl": ([
            (0x6A, LSM6DSxRegisters.control2G, 0x00, "CTRL2_G: gyro powered down"),
            (0x6A, 0x15, 0x10, "CTRL6_C: XL_HM_MODE, accelerometer in low-power mode"),
            (0x6A, LSM6DSxRegisters.md1Config, 0x20, "MD1_CFG: INT1_WU only"),
            (0x6A, LSM6DSxRegisters.int1Control, 0x00, "INT1_CTRL: no data ready"),
            (0x6A, LSM6DSxRegisters.wakeUpThreshold, 4, "WAKE_UP_THS: 0.25 g of slope"),
            (0x1C, LSM9DS1Registers.magnetometerControl3, 0x03, "LIS3MDL CTRL_REG3: powered down"),
        ], 26),
    ]

    @Test(arguments: ["sim", "gy-521", "gy-9250", "icm20948", "lsm6dsox-lis3mdl"])
    func idleShakeWakeAndBack(board: String) throws {
        var motion = EventTrials.ShakeMotion(hertz: 4, peakG: 2, atLeast: 2)
        motion.onset = 5
        let session = try Hardware.openSimulated(scenario: motion.scenario, errors: "typical", board: board, virtualTime: true)
        let twin = try #require(session.twin)
        let expected = try #require(Self.lowPowerRegisters[board])
        let watch = try EngineLowPower(session: session, rate: 100, duration: 12)

        var events: [MotionEvent] = []
        var transitions: [LowPowerAcquisition.Transition] = []
        var transactionsWhenIdle: Int?
        var readsWhileIdle: [Int] = []
        var idleSince: Double?
        var idleSeconds: [Double] = []
        try watch.run(events: { events += $0 }) { transition in
            transitions.append(transition)
            switch transition {
            case .idle:
                for (address, register, value, meaning) in expected.registers {
                    #expect((try? twin.bus.readRegister(address, register)) == value, "\(board) idle: \(meaning)")
                }
                let rate = (twin.chips[session.placement.address] as? MPU6050Emulator)?.sampleRateHz
                    ?? (twin.chips[session.placement.address] as? LSM9DS1AccelGyroEmulator)?.sampleRateHz
                    ?? (twin.chips[session.placement.address] as? ICM20948Emulator)?.sampleRateHz
                    ?? (twin.chips[session.placement.address] as? LSM6DSxEmulator)?.sampleRateHz
                #expect(rate == expected.rateHz, "\(board): the chip samples at \(rate ?? 0) Hz while idle")
                // From here until the edge, only the watch's read-back touches the bus.
                transactionsWhenIdle = twin.bus.transactionCount
                idleSince = session.clock.now
            case .woke:
                readsWhileIdle.append(twin.bus.transactionCount - (transactionsWhenIdle ?? 0))
                idleSeconds.append(session.clock.now - (idleSince ?? 0))
            case .outage, .recovered:
                Issue.record("\(board): no fault was injected, yet \(transition.note)")
            }
        }

        // Warm-up and 1 s of quiet, idle; the shake wakes it; 1 s after the shake, idle again.
        guard transitions.count == 3, case .idle(let firstIdle, _) = transitions[0], case .woke(let edge) = transitions[1],
              case .idle(let secondIdle, _) = transitions[2] else {
            Issue.record("\(board): expected idle, woke, idle; got \(transitions)")
            return
        }
        #expect(firstIdle < motion.onset)
        // One register read per health check (twice a second), no samples.
        let checks = idleSeconds.map { Int(($0 / AcquisitionLoop.healthCheckInterval).rounded(.down)) }
        #expect(readsWhileIdle.count == 1 && readsWhileIdle == checks, "\(board): bus transactions while idle: \(readsWhileIdle) in \(idleSeconds) s")
        let line = try #require(twin.interruptLines[session.placement.address])
        #expect(edge.kind == .rising && edge.line == line)
        #expect(edge.timestamp >= motion.onset && edge.timestamp - motion.onset <= 0.15, "\(board): INT edge \(edge.timestamp - motion.onset) s after the onset")
        #expect(secondIdle > motion.stop + 1 && secondIdle < motion.stop + 2)

        let shakes = events.compactMap { if case .shake(let s) = $0 { s } else { nil } }
        guard shakes.count == 2, case .began(let began) = shakes[0], case .ended(let ended) = shakes[1] else {
            Issue.record("\(board): expected began then ended, got \(shakes)")
            return
        }
        #expect(began - motion.onset <= 0.3, "\(board): began \(began - motion.onset) s after the onset (woken by INT)")
        #expect(ended - motion.stop <= 0.4, "\(board): ended \(ended - motion.stop) s after the stop")
        // The run ended while idle: the chip sleeps, as after a full-rate run.
        let asleep: Bool
        switch board {
        case "sim": asleep = try twin.bus.readRegister(0x6A, LSM9DS1Registers.control6XL) == 0
        case "icm20948": asleep = try twin.bus.readRegister(0x68, ICM20948Registers.powerManagement1) & ICM20948Registers.powerSleep != 0
        case "lsm6dsox-lis3mdl": asleep = try twin.bus.readRegister(0x6A, LSM6DSxRegisters.control1XL) == 0
        default: asleep = try twin.bus.readRegister(0x68, MPU6050Registers.powerManagement1) & MPU6050Registers.powerSleep != 0  // PWR_MGMT_1 SLEEP
        }
        #expect(asleep, "\(board): the chip was left watching")
    }

    @Test func aBoardWithoutAnInterruptPinIsRefusedWithItsName() throws {
        let session = try Hardware.openSimulated(scenario: "still", errors: "perfect", board: "sense-hat", virtualTime: true)
        #expect {
            _ = try EngineLowPower(session: session, rate: 100, duration: 1)
        } throws: { error in
            // The Sense HAT's INT lines go to its ATtiny88: nothing to add to its profile.
            "\(error)".contains("Sense HAT") && "\(error)".contains("ATtiny88") && !"\(error)".contains("add interrupt-pin")
        }
    }

    /// A fault while idle (or as the edge wakes it), injected into the twin.
    enum IdleFault: String, CaseIterable, CustomTestStringConvertible {
        /// A loose jumper: the next 5 transactions to the chip are not acknowledged.
        case nackBurst
        /// The hat pulled off for 1 s: NACKs, then the chip back at its power-on defaults.
        case unplug
        /// Power lost for 0.2 s between two read-backs: no bus error, only the defaults show it.
        case brownOut
        /// NACKs just as the INT edge wakes the loop (taking the chip out of its watch fails).
        case nackAsItWakes

        var testDescription: String { rawValue }
    }

    /// idle → fault → told once in words → recovered → watching again (the registers show the
    /// low-power configuration) → a shake still wakes it and is recognised.
    @Test(arguments: ["sim", "gy-521"], IdleFault.allCases)
    func idleRidesOutBusFaults(board: String, fault: IdleFault) throws {
        var motion = EventTrials.ShakeMotion(hertz: 4, peakG: 2, atLeast: 2)
        motion.onset = 6
        let session = try Hardware.openSimulated(scenario: motion.scenario, errors: "typical", board: board, virtualTime: true)
        let twin = try #require(session.twin)
        let expected = try #require(Self.lowPowerRegisters[board])
        let placement = session.placement
        let watch = try EngineLowPower(session: session, rate: 100, duration: 10)

        var events: [MotionEvent] = []
        var transitions: [LowPowerAcquisition.Transition] = []
        var faultAt: Double?
        let losses = try watch.run(events: { events += $0 }) { transition in
            transitions.append(transition)
            switch (transition, fault) {
            case (.idle, .nackBurst) where faultAt == nil:
                twin.inject(.noAcknowledge(count: 5, address: placement.address))
            case (.idle, .unplug) where faultAt == nil:
                twin.unplug(placement, for: 1)
            case (.idle, .brownOut) where faultAt == nil:
                twin.unplug(placement, for: 0.2)
            case (.woke, .nackAsItWakes) where faultAt == nil:
                twin.inject(.noAcknowledge(count: 5, address: placement.address))
            case (.recovered(_, _, let rate?), _):
                // Watching again: the chip is back in its low-power configuration.
                for (address, register, value, meaning) in expected.registers {
                    #expect((try? twin.bus.readRegister(address, register)) == value, "\(board) re-armed: \(meaning)")
                }
                #expect(rate == expected.rateHz)
                return
            default:
                return
            }
            faultAt = session.clock.now
        }

        let names = transitions.map { transition -> String in
            switch transition {
            case .idle: "idle"
            case .woke: "woke"
            case .outage: "outage"
            case .recovered(_, _, let rate): rate == nil ? "recovered awake" : "recovered watching"
            }
        }
        let expectedNames = fault == .nackAsItWakes
            ? ["idle", "woke", "outage", "recovered awake", "idle"]
            : ["idle", "outage", "recovered watching", "woke", "idle"]
        #expect(names == expectedNames, "\(board), \(fault): \(transitions.map(\.note))")
        let start = try #require(faultAt)
        // Told in words, once, soon after the fault; the outage's length counted.
        for case let .outage(time, problem) in transitions {
            #expect(time - start <= AcquisitionLoop.healthCheckInterval + 0.01, "\(board): told \(time - start) s after the fault")
            #expect(problem.contains(fault == .brownOut ? "lost its low-power configuration" : "no device answered"), "\(problem)")
        }
        // Found at the next read-back (or at once), back after the fault's own length plus the
        // retries (50 ms apart) and a configuration (the chip's reset and first sample).
        var outageSeconds = 0.0
        for case let .recovered(time, seconds, _) in transitions {
            outageSeconds = seconds
            #expect(time - start <= (fault == .unplug ? 1.5 : 1.0), "\(board): recovered \(time - start) s after the fault")
            #expect(seconds > 0)
            if fault != .nackAsItWakes { #expect(abs(losses.unwatchedSeconds - seconds) < 1e-9) }
        }

        // The shake still wakes it and is recognised in time.
        guard case .woke(let edge)? = transitions.first(where: { if case .woke = $0 { true } else { false } }) else { return }
        #expect(edge.timestamp >= motion.onset && edge.timestamp - motion.onset <= 0.15, "\(board): INT edge \(edge.timestamp - motion.onset) s after the onset")
        let shakes = events.compactMap { if case .shake(let s) = $0 { s } else { nil } }
        guard shakes.count == 2, case .began(let began) = shakes[0], case .ended(let ended) = shakes[1] else {
            Issue.record("\(board), \(fault): expected began then ended, got \(shakes)")
            return
        }
        // An outage as it wakes delays `began` by its length, no more.
        let late = fault == .nackAsItWakes ? outageSeconds : 0
        #expect(began - motion.onset <= 0.3 + late, "\(board): began \(began - motion.onset) s after the onset (outage \(late) s)")
        #expect(ended - motion.stop <= 0.4, "\(board): ended \(ended - motion.stop) s after the stop")
    }
}
