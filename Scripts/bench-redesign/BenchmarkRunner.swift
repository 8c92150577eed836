#if canImport(Glibc)
import Glibc
#endif

/// Runs the registered benchmarks whose names contain `--filter`: each for `--seconds` of wall
/// time (default its configuration's maxDuration) or exactly `--iterations` closure calls (for
/// callgrind), and prints one line per benchmark: calls, then CPU nanoseconds per unit (fastest,
/// 25th percentile, median) and units per second at the fastest and the median. A unit is one
/// of the closure's `scaledIterations` (a sample for the decode path, 1 000 updates for fusion).
public enum BenchmarkRunner {
    public static func main(_ arguments: [String]) {
        var filter = ""
        var seconds: Double?
        var iterations: Int?
        var index = 1
        while index + 1 < arguments.count {
            switch arguments[index] {
            case "--filter": filter = arguments[index + 1]
            case "--seconds": seconds = Double(arguments[index + 1])
            case "--iterations": iterations = Int(arguments[index + 1])
            case "--units": Benchmark.unitsOverride = Int(arguments[index + 1])
            default: fatalError("unknown option \(arguments[index])")
            }
            index += 2
        }
        for benchmark in Benchmark.registered where filter.isEmpty || benchmark.name.contains(filter) {
            run(benchmark, seconds: seconds, iterations: iterations)
        }
    }

    static func run(_ benchmark: Benchmark, seconds: Double?, iterations: Int?) {
        let limit = seconds.map { UInt64($0 * 1e9) } ?? UInt64(benchmark.configuration.maxDuration.components.seconds) * 1_000_000_000
        let units = Double(benchmark.scaledIterations.count)
        var perUnit: [Double] = []
        let begin = monotonicNanoseconds()
        while true {
            do { try benchmark.closure(benchmark) } catch { fatalError("\(benchmark.name): \(error)") }
            if let failure = benchmark.failure { fatalError("\(benchmark.name): \(failure)") }
            perUnit.append(Double(benchmark.measured) / units)
            if let iterations {
                if perUnit.count >= iterations { break }
            } else if monotonicNanoseconds() - begin >= limit || perUnit.count >= benchmark.configuration.maxIterations {
                break
            }
        }
        perUnit.sort()
        let fastest = perUnit[0], p25 = perUnit[perUnit.count / 4], median = perUnit[perUnit.count / 2]
        print("\(benchmark.name)\tcalls \(perUnit.count)\tns/unit min \(format(fastest)) p25 \(format(p25)) median \(format(median))"
            + "\tunits/s min-time \(format(1e9 / fastest)) median \(format(1e9 / median))")
    }

    static func format(_ value: Double) -> String {
        let scaled = (value * 10).rounded() / 10
        return "\(scaled)"
    }
}
