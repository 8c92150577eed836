/// The LSM6DS3 / LSM6DS3TR-C / LSM6DSL / LSM6DSOX register facts the driver walks, from ST's
/// datasheets: LSM6DSL DocID028475 Rev 7 ("DSL §", its register table §8, descriptions §9),
/// LSM6DS3 DocID026899 Rev 10 ("DS3 §"), LSM6DS3TR-C DS12532 Rev 3 (the LSM6DSL's map for
/// everything used here) and LSM6DSOX DS12814 Rev 3 ("DSOX §"). Where the parts differ it is a
/// row of `LSM6DSxMap`, not a branch.
enum LSM6DSxRegisters {
    // MARK: Registers every part has at the same address (DSL §8 Table 19, DSOX §8 Table 20)
    static let int1Control: UInt8 = 0x0D      // INT1_CTRL: INT1_DRDY_XL bit 0 (DSL §9.13, DSOX §9.14)
    static let whoAmI: UInt8 = 0x0F           // WHO_AM_I (values in `ChipParts`)
    static let accelControl: UInt8 = 0x10     // CTRL1_XL: ODR_XL 7:4, FS_XL 3:2 (DSL §9.16, DSOX §9.15)
    static let gyroControl: UInt8 = 0x11      // CTRL2_G: ODR_G 7:4, FS_G 3:2, FS_125 bit 1 (DSL §9.17)
    static let control3: UInt8 = 0x12         // CTRL3_C: BOOT, BDU, H_LACTIVE, PP_OD, SIM, IF_INC, BLE, SW_RESET
    static let control6: UInt8 = 0x15         // CTRL6_C: XL_HM_MODE bit 4 (DSL §9.21, DSOX §9.20)
    static let wakeUpSource: UInt8 = 0x1B     // WAKE_UP_SRC: WU_IA bit 3, X/Y/Z_WU 2:0 (DSL §9.26)
    static let temperatureLow: UInt8 = 0x20   // OUT_TEMP_L/H, then OUTX_L_G … OUTZ_H_XL (DSL §9.30–9.43)
    static let fifoStatus1: UInt8 = 0x3A      // FIFO_STATUS1…4 (DSL §9.47) / FIFO_STATUS1…2 (DSOX §9.47)
    static let wakeUpThreshold: UInt8 = 0x5B  // WAKE_UP_THS: WK_THS 5:0 (DSL §9.74, DSOX §9.67)
    static let wakeUpDuration: UInt8 = 0x5C   // WAKE_UP_DUR: WAKE_DUR 6:5 (DSL §9.75, DSOX §9.68)
    static let md1Config: UInt8 = 0x5E        // MD1_CFG: INT1_WU bit 5 (DSL §9.77, DSOX §9.70)

    /// SW_RESET, keeping IF_INC (the default) so the reset write itself is ordinary.
    static let control3Reset: UInt8 = 0x05
    /// BDU (both bytes of a word from one sample) + IF_INC (bursts auto-increment).
    static let control3Operating: UInt8 = 0x44
    static let int1DataReadyAccel: UInt8 = 0x01
    static let md1WakeUp: UInt8 = 0x20
    /// CTRL6_C XL_HM_MODE: the accelerometer's high-performance mode off (low-power / normal by ODR).
    static let accelLowPower: UInt8 = 0x10
    static let wakeUpDurationField = RegisterField(register: wakeUpDuration, mask: 0x60)
    /// WK_THS: one step is FS_XL / 2⁶ (DSL §9.74; DSOX with WAKE_THS_W = 0, §9.68).
    static let wakeUpThresholdSteps = 64.0
    static let wakeUpThresholdMaximum = 63

    static let accelRate = RegisterField(register: accelControl, mask: 0xF0)
    static let accelFullScale = RegisterField(register: accelControl, mask: 0x0C)
    static let gyroRate = RegisterField(register: gyroControl, mask: 0xF0)
    /// FS_G (3:2) and FS_125 (1) read as one 3-bit field: 001 is ±125 °/s.
    static let gyroFullScale = RegisterField(register: gyroControl, mask: 0x0E)

    /// DSL Table 52 / DSOX Table 52 (ODR_XL) and DSL Table 55 (ODR_G): the codes both
    /// sensors share, high-performance mode; the accelerometer follows the gyro's rate here.
    static let sampleRates: [DataRate] = [
        DataRate(code: 1, hertz: 12.5), DataRate(code: 2, hertz: 26), DataRate(code: 3, hertz: 52),
        DataRate(code: 4, hertz: 104), DataRate(code: 5, hertz: 208), DataRate(code: 6, hertz: 416),
        DataRate(code: 7, hertz: 833), DataRate(code: 8, hertz: 1666),
    ]
    /// The accelerometer alone in low-power mode (XL_HM_MODE = 1; DSL Table 52, DSOX Table 52):
    /// the rates a motion watch uses.
    static let lowPowerRates: [DataRate] = [
        DataRate(code: 1, hertz: 12.5), DataRate(code: 2, hertz: 26), DataRate(code: 3, hertz: 52),
    ]

    /// DSL Table 3 / DSOX Table 2 (LA_So) and DSL Table 53 (FS_XL; the order 2, 16, 4, 8 g):
    /// ±g, g per LSB.
    static let accelScales: [FullScale] = [
        FullScale(code: 0, range: 2, sensitivity: 0.000061),
        FullScale(code: 2, range: 4, sensitivity: 0.000122),
        FullScale(code: 3, range: 8, sensitivity: 0.000244),
        FullScale(code: 1, range: 16, sensitivity: 0.000488),
    ]
    /// DSL Table 3 / DSOX Table 2 (G_So) and DSL Table 56 (FS_G, FS_125): ±°/s, °/s per LSB.
    static let gyroScales: [FullScale] = [
        FullScale(code: 1, range: 125, sensitivity: 0.004375),
        FullScale(code: 0, range: 245, sensitivity: 0.00875),
        FullScale(code: 2, range: 500, sensitivity: 0.0175),
        FullScale(code: 4, range: 1000, sensitivity: 0.035),
        FullScale(code: 6, range: 2000, sensitivity: 0.070),
    ]

    /// One burst from OUT_TEMP_L: temperature, gyro x, y, z, accel x, y, z (little-endian).
    static let sampleSet = SampleSetLayout(register: temperatureLow, length: 14, accelAt: 8, gyroAt: 2, temperatureAt: 0)
    /// FIFO continuous mode: when full, the oldest data is overwritten (DSL §8.4, DSOX §6.5).
    static let fifoModeContinuous: UInt8 = 0x06
    static let fifoModeBypass: UInt8 = 0x00
}

/// How a part's FIFO is laid out and driven.
enum LSM6DSxFIFO: Sendable {
    /// LSM6DS3 / LSM6DSL / LSM6DS3TR-C (DSL §8): 16-bit words read one by one from
    /// FIFO_DATA_OUT_L/H (0x3E/0x3F), in the pattern gyro x, y, z, accel x, y, z when both are
    /// batched at the same decimation (DSL §8.2); FIFO_STATUS1–2 count unread words, FIFO_STATUS3–4
    /// say where in the pattern the next word is.
    case pattern(capacityWords: Int, unreadHighMask: UInt8)
    /// LSM6DSOX (DSOX §9.76–9.83): entries of a tag byte (FIFO_DATA_OUT_TAG, 0x78: TAG_SENSOR 7:3,
    /// TAG_CNT 2:1, TAG_PARITY 0) and 6 data bytes (0x79–0x7E); the tag says which sensor
    /// (0x01 gyroscope, 0x02 accelerometer, DSOX Table 114). FIFO_STATUS1–2 count unread entries.
    case tagged(capacityEntries: Int)
}

/// Where the four parts differ, as rows.
struct LSM6DSxMap: Sendable {
    let model: ChipModel
    let fifo: LSM6DSxFIFO
    /// OUT_TEMP: LSB per °C, 0 LSB at 25 °C (DS3 Table 5: 16; DSL, DS3TR-C Table 5 and DSOX Table 4: 256).
    let temperatureLSBPerDegree: Double
    /// Where the wake-up's latch (LIR, bit 0) sits: TAP_CFG 0x58 (DS3, DSL) or TAP_CFG0 0x56 (DSOX §9.59).
    let latchRegister: UInt8
    /// INTERRUPTS_ENABLE (bit 7), which the DSL (TAP_CFG 0x58) and the DSOX (TAP_CFG2 0x58) need
    /// before wake-up reaches a pin; the LSM6DS3 has no such bit (its 0x58 bit 7 is TIMER_EN).
    let interruptsEnableRegister: UInt8?

    /// DS3 §8: pattern FIFO of 8 kbyte (4096 words; DIFF_FIFO 11:0, FIFO_STATUS2 3:0).
    static let lsm6ds3 = LSM6DSxMap(
        model: .lsm6ds3, fifo: .pattern(capacityWords: 4096, unreadHighMask: 0x0F),
        temperatureLSBPerDegree: 16, latchRegister: 0x58, interruptsEnableRegister: nil)
    /// DSL §8 (and the DS3TR-C's §8): 4 kbyte (2048 words; DIFF_FIFO 10:0, FIFO_STATUS2 2:0).
    static let lsm6dsl = LSM6DSxMap(
        model: .lsm6dsl, fifo: .pattern(capacityWords: 2048, unreadHighMask: 0x07),
        temperatureLSBPerDegree: 256, latchRegister: 0x58, interruptsEnableRegister: 0x58)
    /// DSOX §6.5: 3 kbyte of data, 512 tagged entries (DIFF_FIFO 9:0, FIFO_STATUS2 1:0).
    static let lsm6dsox = LSM6DSxMap(
        model: .lsm6dsox, fifo: .tagged(capacityEntries: 512),
        temperatureLSBPerDegree: 256, latchRegister: 0x56, interruptsEnableRegister: 0x58)

    static func of(_ model: ChipModel) -> LSM6DSxMap {
        switch model {
        case .lsm6ds3: .lsm6ds3
        case .lsm6dsox: .lsm6dsox
        default: .lsm6dsl
        }
    }

    /// Sample sets (gyro + accel) the FIFO holds.
    var fifoCapacitySets: Int {
        switch fifo {
        case .pattern(let words, _): words / 6
        case .tagged(let entries): entries / 2
        }
    }

    func temperatureCelsius(_ raw: Int16) -> Double { 25 + Double(raw) / temperatureLSBPerDegree }
}

/// Pattern FIFO registers (DSL §9.6–9.10, §9.47–9.49).
enum LSM6DSxPatternFIFO {
    static let control3: UInt8 = 0x08         // FIFO_CTRL3: DEC_FIFO_GYRO 5:3, DEC_FIFO_XL 2:0
    static let control5: UInt8 = 0x0A         // FIFO_CTRL5: ODR_FIFO 6:3, FIFO_MODE 2:0
    static let dataOut: UInt8 = 0x3E          // FIFO_DATA_OUT_L/H
    /// Gyro and accel both in the FIFO, without decimation (DEC = 001, DSL Table 28).
    static let bothUndecimated: UInt8 = 0x09
    static let statusLength = 4
    static let overrun: UInt8 = 0x40           // FIFO_STATUS2 OVER_RUN
    static let wordsPerSet = 6
}

/// Tagged FIFO registers (DSOX §9.6–9.9, §9.47–9.48, §9.76–9.83).
enum LSM6DSxTaggedFIFO {
    static let control3: UInt8 = 0x09         // FIFO_CTRL3: BDR_GY 7:4, BDR_XL 3:0 (rate codes as ODR)
    static let control4: UInt8 = 0x0A         // FIFO_CTRL4: FIFO_MODE 2:0
    static let dataOutTag: UInt8 = 0x78       // FIFO_DATA_OUT_TAG, then X_L … Z_H (0x79–0x7E)
    static let statusLength = 2
    static let overrun: UInt8 = 0x40           // FIFO_STATUS2 FIFO_OVR_IA
    static let unreadHighMask: UInt8 = 0x03
    static let entryLength = 7
    static let gyroTag: UInt8 = 0x01
    static let accelTag: UInt8 = 0x02
}
