#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import IMULinux

@Suite struct LinuxMonotonicClockTests {
    @Test func nowMatchesClockMonotonic() {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let reference = Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
        let now = LinuxMonotonicClock().now
        #expect(now >= reference)
        #expect(now - reference < 0.5)
    }

    @Test func sleepWaitsAtLeastTheTimeAsked() {
        let clock = LinuxMonotonicClock()
        let start = clock.now
        clock.sleep(seconds: 0.02)
        let slept = clock.now - start
        #expect(slept >= 0.02)
        #expect(slept < 1)
    }

    @Test func sleepUntilADeadlineEndsAtIt() {
        let clock = LinuxMonotonicClock()
        let deadline = clock.now + 0.015
        clock.sleep(untilSeconds: deadline)
        #expect(clock.now >= deadline)
    }

    @Test func nonPositiveSleepsReturnAtOnce() {
        let clock = LinuxMonotonicClock()
        let start = clock.now
        clock.sleep(seconds: -3)
        clock.sleep(seconds: 0)
        #expect(clock.now - start < 0.01)
    }
}
