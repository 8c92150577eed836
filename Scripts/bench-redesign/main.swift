import Benchmark

// The benchmark target's `benchmarks` closure registers its benchmarks; the runner times them.
benchmarks()
BenchmarkRunner.main(CommandLine.arguments)
