// The few calls of package-benchmark's API that Benchmarks/ uses, so that the same benchmark
// sources build with plain swiftc against any commit's release modules (package-benchmark
// itself cannot be resolved on a machine without its repository; Scripts/bench-redesign.sh).
// It times what each closure marks between startMeasurement() and stopMeasurement() in the
// thread's CPU time, not wall time: on a shared machine a process waiting for a core would
// otherwise be charged for it. It does not count allocations.
#if canImport(Glibc)
import Glibc
#endif

public enum BenchmarkMetric: Sendable { case throughput, wallClock, mallocCountTotal }

public enum BenchmarkScalingFactor: Int, Sendable {
    case one = 1, kilo = 1_000, mega = 1_000_000
}

public final class Benchmark {
    public struct Configuration: Sendable {
        public var metrics: [BenchmarkMetric]
        public var scalingFactor: BenchmarkScalingFactor
        public var maxDuration: Duration
        public var maxIterations: Int

        public init(
            metrics: [BenchmarkMetric] = [.wallClock], scalingFactor: BenchmarkScalingFactor = .one,
            maxDuration: Duration = .seconds(1), maxIterations: Int = 10_000
        ) {
            self.metrics = metrics
            self.scalingFactor = scalingFactor
            self.maxDuration = maxDuration
            self.maxIterations = maxIterations
        }
    }

    nonisolated(unsafe) public static var defaultConfiguration = Configuration()
    nonisolated(unsafe) static var registered: [Benchmark] = []
    /// The runner's `--units`: fewer units per call than the configuration's scaling factor (for
    /// callgrind, where a million fusion updates a call would take minutes).
    nonisolated(unsafe) static var unitsOverride: Int?

    public let name: String
    let configuration: Configuration
    let closure: (Benchmark) throws -> Void
    var started: UInt64 = 0
    var measured: UInt64 = 0
    var failure: String?

    /// Units per closure call: the loop the closure times.
    public var scaledIterations: Range<Int> { 0..<(Benchmark.unitsOverride ?? configuration.scalingFactor.rawValue) }

    @discardableResult
    public init(
        _ name: String, configuration: Configuration = Benchmark.defaultConfiguration,
        closure: @escaping (Benchmark) throws -> Void
    ) {
        self.name = name
        self.configuration = configuration
        self.closure = closure
        Benchmark.registered.append(self)
    }

    public func startMeasurement() { started = threadCPUNanoseconds() }
    public func stopMeasurement() { measured = threadCPUNanoseconds() - started }
    public func error(_ description: String) { failure = description }
}

@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func threadCPUNanoseconds() -> UInt64 {
    clockNanoseconds(CLOCK_THREAD_CPUTIME_ID)
}

func monotonicNanoseconds() -> UInt64 {
    clockNanoseconds(CLOCK_MONOTONIC)
}

private func clockNanoseconds(_ clock: clockid_t) -> UInt64 {
    var time = timespec()
    clock_gettime(clock, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
