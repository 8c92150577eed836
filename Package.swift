// swift-tools-version: 6.1
import PackageDescription

// How the `imu` binary is linked in release builds (the package's and the installer's): what an
// idle daemon keeps resident (Docs/performance.md, "The daemon with no client").
// - lld with packed relative relocations (DT_RELR, glibc 2.36): the 110 000 relocations of a
//   position-independent binary take 21 kB instead of 2.6 MB, all of which the loader reads at
//   every start. The binary stays position-independent (ASLR kept).
// - No dynamic export of every Swift symbol: the static runtime's link arguments export them all
//   (`-export-dynamic`), a 1.4 MB symbol table the loader searches for every symbol a library
//   binds. Nothing looks symbols up in the executable.
// - The functions an idle daemon runs side by side (Scripts/imu-link-order.txt, written by
//   Scripts/link-order.sh): the kernel maps code in blocks of up to 64 KiB around each page
//   touched, and scattered, those few thousand functions kept 10 MiB of code resident.
// Only on the `imu` target, so a package that uses the libraries sees no unsafe flags.
let imuReleaseLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Scripts/imu-link-order.txt",
            "-Xlinker", "--no-warn-symbol-ordering",
        ],
        .when(platforms: [.linux], configuration: .release)),
]

// One module per layer; the data flows down this list (see Docs/architecture.md).
let package = Package(
    name: "imu",
    products: [
        // The motion library: drivers, twin, calibration, fusion, motion, the engine, the motion
        // manager and its platforms. A program that wants `MotionManager` builds none of NIO,
        // Hummingbird, libmosquitto or sd-bus (Docs/architecture.md, "Library products").
        .library(
            name: "IMUMotionKit",
            targets: [
                "IMUBus", "IMUGeometry", "IMUConfigFile", "IMUDrivers", "IMUBoards", "IMULinux", "IMUTwin",
                "IMUFusion", "IMUCalibration", "IMUGeomagnetism", "IMUMotion", "IMUEvents", "IMUTilt", "IMUFormats", "IMUWire",
                "IMULog", "IMUEngine", "IMUShareClient", "IMUKit", "IMUDevices", "IMUMotionKit",
            ]
        ),
        // The daemon (`imu run`) as a library, with its rules and the front-end layer; each front
        // end is a product of its own, so a daemon builds only the ones it lists.
        .library(name: "IMUDaemonKit", targets: ["IMUDaemon", "IMURules", "IMUFrontEnd"]),
        // Each front end on its own, for a program that assembles its own daemon.
        .library(name: "IMUShare", targets: ["IMUShare"]),
        .library(name: "IMUMQTT", targets: ["IMUMQTT"]),
        .library(name: "IMUWeb", targets: ["IMUWeb"]),
        .library(name: "IMUSensorProxy", targets: ["IMUSensorProxy"]),
        // The Double reference filter and the SVG charts.
        .library(name: "IMUFusionReference", targets: ["IMUFusionReference"]),
        .library(name: "IMUPlot", targets: ["IMUPlot"]),
        .executable(name: "imu", targets: ["imu"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The dashboard's HTTP and WebSocket server (IMUWeb); docs-for-lead.md says why this one.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // C libraries, through system-library targets, plus the thinnest shims their headers need.
        .systemLibrary(
            name: "CI2C",
            providers: [.apt(["libi2c-dev"])]
        ),
        .systemLibrary(
            name: "CGPIOD",
            pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]
        ),
        .target(name: "CGPIOBridge", dependencies: ["CGPIOD"]),
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // posix_spawn into a process group, close-on-exec pipes, eventfd, child subreaper.
        .target(name: "CIMUProcess"),

        // Bus layer: I²C and GPIO protocols and errors (no platform code; Foundation-free).
        .target(name: "IMUBus"),
        // Vectors, quaternions, matrices and right-angle axis rotations (Double; Foundation-free).
        .target(name: "IMUGeometry"),
        // Linux implementations of the bus layer: /dev/i2c-N and libgpiod.
        .target(name: "IMULinux", dependencies: ["IMUBus", "CI2C", "CGPIOBridge"]),
        // Chip drivers: register tables, probe, configure, burst and FIFO reads (Foundation-free).
        .target(name: "IMUDrivers", dependencies: ["IMUBus", "IMUGeometry"]),
        // Checked TOML files (boards, rules, calibration): our own bounded TOML 1.0 reader, and
        // errors with file, line and what was expected.
        .target(name: "IMUConfigFile"),
        // The one wire format: the JSON writer, its number policy (finite, no -0, fixed decimals
        // per quantity), the line writers of every output, the event kinds (Foundation-free).
        .target(name: "IMUWire", dependencies: ["IMUConfigFile"]),
        // Board and hat profiles (Boards/*.toml), mounting rotations, auto-detection.
        .target(
            name: "IMUBoards",
            dependencies: [
                "IMUBus", "IMUGeometry", "IMUDrivers", "IMUConfigFile",
            ]
        ),
        // Digital twin: register-level chip emulators on a virtual bus, driven by motion scenarios.
        .target(name: "IMUTwin", dependencies: ["IMUBus", "IMUGeometry", "IMUDrivers", "IMUBoards"]),
        // The fusion core: fixed-point (integer) attitude filter; no Foundation, no floating point
        // in the update path, no allocation; also builds with Embedded Swift for a Cortex-M0+.
        .target(name: "IMUFusion"),
        // The same filter in Double: the readable reference the fixed-point core is tested against.
        .target(name: "IMUFusionReference", dependencies: ["IMUGeometry", "IMUFusion"]),
        // Motion products with Core Motion's meanings: attitude, reference frames, heading, filters.
        .target(
            name: "IMUMotion",
            dependencies: [
                "IMUGeometry", "IMUDrivers", "IMUFusion", "IMUCalibration",
            ]
        ),
        // Text for samples and device motion: the table, CSV and JSON Lines every output shares.
        .target(name: "IMUFormats", dependencies: ["IMUGeometry", "IMUDrivers", "IMUMotion", "IMUWire"]),
        // The one engine: acquisition (FIFO, low power, outages) → calibration → fusion →
        // recognisers on its own thread, typed outputs to any number of subscribers.
        .target(
            name: "IMUEngine",
            dependencies: [
                "IMUBus", "IMUGeometry", "IMUDrivers", "IMUBoards", "IMUCalibration", "IMUMotion", "IMUEvents", "IMUFormats",
                "IMUWire",
            ]
        ),
        // Platforms at the edge: opening an IMU on Linux (/dev/i2c-N, the header's GPIO chip) or
        // the digital twin, as the engine's `IMUDevice`.
        .target(name: "IMUDevices", dependencies: ["IMUBus", "IMUGeometry", "IMUBoards", "IMUDrivers", "IMUCalibration", "IMULinux", "IMUTwin", "IMUEngine"]),
        // The motion library composed: `MotionManager`'s convenience initialisers that open this
        // computer's IMU or the twin (IMUDevices) for the motion manager (IMUKit), which sees
        // neither platform.
        .target(name: "IMUMotionKit", dependencies: ["IMUBoards", "IMUCalibration", "IMUEngine", "IMUKit", "IMUTwin", "IMUDevices"]),
        // The motion manager (Core Motion's CMMotionManager): one per IMU, pull and push delivery,
        // a subscriber of the engine.
        .target(
            name: "IMUKit",
            dependencies: [
                "IMUBus", "IMUDrivers", "IMUBoards", "IMUGeometry", "IMUMotion", "IMUCalibration", "IMUEngine", "IMUShareClient",
            ]
        ),
        // The daemon (`imu run`) as a library type: one engine, the rules and their actions,
        // reload, MQTT, and the front ends later issues add.
        .target(
            name: "IMUDaemon",
            dependencies: [
                "IMUBus", "IMUDrivers", "IMUEngine", "IMUEvents", "IMURules", "IMUFrontEnd", "IMUCalibration",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The front-end layer: the one feed of the engine (lines built once, shared by every
        // subscriber), the `FrontEnd` protocol and the context the daemon gives each front end.
        .target(
            name: "IMUFrontEnd",
            dependencies: [
                "IMUEngine", "IMUEvents", "IMUDrivers", "IMUGeometry", "IMUCalibration", "IMUShareClient", "IMUWire",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Tilt to push (UIKit's push behaviour from gravity) and a small 2D physics stepper.
        .target(name: "IMUTilt", dependencies: ["IMUGeometry", "IMUMotion"]),
        // Recognisers: device orientation, shake, slap (events from device motion).
        .target(name: "IMUEvents", dependencies: ["IMUGeometry", "IMUMotion", "IMUWire"]),
        // Rules files: event → GPIO or command actions, checked at load time.
        .target(
            name: "IMURules",
            dependencies: ["IMUBus", "IMUEvents", "IMUConfigFile", "CIMUProcess"]
        ),
        // The daemon's MQTT front end (libmosquitto): events, motion, availability, Home Assistant discovery.
        .target(
            name: "IMUMQTT",
            dependencies: [
                "CMosquitto", "IMUConfigFile", "IMUWire", "IMUFrontEnd", "IMUEngine", "IMUEvents", "IMUMotion", "IMUCalibration",
                "IMUDrivers", "IMUFormats", "IMUGeometry",
            ]
        ),
        // The local socket's protocol and client side: the request grammar and validator, the
        // socket paths, `DaemonClient`, the hello and data lines read back (no server: the motion
        // manager needs only these).
        .target(name: "IMUShareClient", dependencies: ["IMUConfigFile", "IMUCalibration", "IMUDrivers", "IMUGeometry", "IMUMotion", "IMUWire"]),
        // The daemon's local socket server: JSON Lines clients (imu stream, Python, …) sharing one engine.
        .target(name: "IMUShare", dependencies: ["IMUShareClient", "IMUFrontEnd", "IMUEvents", "IMUConfigFile"]),
        // iio-sensor-proxy's D-Bus interface (net.hadess.SensorProxy) for the desktop's screen
        // rotation and compass, through libsystemd's sd-bus and a shim for its C macros.
        .target(name: "CSensorProxyBus", linkerSettings: [.linkedLibrary("systemd")]),
        .target(name: "IMUSensorProxy", dependencies: ["CSensorProxyBus", "IMUFrontEnd", "IMUShareClient", "IMUEvents", "IMUGeometry", "IMUConfigFile"]),
        // SVG charts of logs and device motion (imu plot).
        .target(name: "IMUPlot"),
        // Calibration: gyro bias, six-pose accelerometer, magnetometer ellipsoid fit, sphere
        // coverage, and the calibration files (pure fits on plain data; files written atomically).
        .target(
            name: "IMUCalibration",
            dependencies: ["IMUGeometry", "IMUConfigFile"]
        ),
        // The World Magnetic Model (WMM2025): declination for true north, the expected field strength.
        .target(name: "IMUGeomagnetism"),
        // Recorded logs: the replay CSV (what `imu read --format csv` prints) and BROAD trials.
        .target(name: "IMULog", dependencies: ["IMUGeometry", "IMUDrivers"]),
        // The daemon's web front end: the dashboard page (embedded at build time by the EmbedPage
        // plugin), its WebSocket and JSON API, token and limits; Hummingbird on SwiftNIO.
        .target(
            name: "IMUWeb",
            dependencies: [
                "IMUCalibration", "IMUGeometry", "IMUConfigFile", "IMUEngine", "IMUShareClient", "IMUFrontEnd", "IMUWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Page"],
            plugins: ["EmbedPage"]
        ),
        .executableTarget(name: "EmbedPageTool"),
        .plugin(name: "EmbedPage", capability: .buildTool(), dependencies: ["EmbedPageTool"]),
        // What the `imu` command does, as a library so tests can drive it.
        .target(
            name: "IMUCommands",
            dependencies: [
                "IMUBus", "IMUDrivers", "IMUBoards", "IMULinux", "IMUTwin",
                "IMUFusion", "IMUFusionReference", "IMULog", "IMUMotion", "IMUKit", "IMUGeometry", "IMUGeomagnetism",
                "IMUCalibration", "IMUEvents", "IMURules", "IMUPlot", "IMUTilt", "IMUMQTT", "IMUConfigFile",
                "IMUFormats", "IMUEngine", "IMUDevices", "IMUDaemon", "IMUFrontEnd", "IMUShare", "IMUSensorProxy", "IMUWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "imu", dependencies: ["IMUCommands"], linkerSettings: imuReleaseLinkerSettings),
        // The motion manager example of Docs/core-motion.md, kept compiling with the package.
        .executableTarget(name: "motion-example", dependencies: ["IMUKit", "IMUMotion", "IMUTwin", "IMUMotionKit"], path: "Examples/MotionExample"),

        .testTarget(name: "IMUBusTests", dependencies: ["IMUBus"]),
        .testTarget(
            name: "IMUEngineTests",
            dependencies: [
                "IMUEngine", "IMUDevices", "IMUTwin", "IMUBus", "IMUDrivers", "IMUEvents", "IMUFormats", "IMUDaemon", "IMUWeb", "IMUFrontEnd", "IMUConfigFile",
                "IMUBoards", "IMUMotion", "IMUCalibration", "IMUGeometry", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "IMUGeometryTests",
            dependencies: ["IMUGeometry", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // IMUDevices: the user's advice for a bus that will not open is said there.
        .testTarget(name: "IMULinuxTests", dependencies: ["IMULinux", "IMUBus", "IMUGeometry", "IMUDevices", "IMUBoards", "IMUDrivers", "CI2C"]),
        .testTarget(name: "IMUDriversTests", dependencies: ["IMUDrivers", "IMUTwin", "IMUBus", "IMUBoards", "IMUGeometry"]),
        .testTarget(name: "IMUBoardsTests", dependencies: ["IMUBoards", "IMUDrivers", "IMUGeometry"]),
        .testTarget(name: "IMUConfigFileTests", dependencies: ["IMUConfigFile"]),
        .testTarget(name: "IMUTwinTests", dependencies: ["IMUTwin", "IMUBus", "IMUDrivers", "IMUGeometry"]),
        .testTarget(
            name: "IMUCommandsTests",
            dependencies: [
                "IMUCommands", "imu", "IMUEngine", "IMUDevices", "IMUFormats", "IMUDaemon", "IMUShare", "IMUCalibration",
                "IMUBoards", "IMUBus", "IMUDrivers", "IMUEvents", "IMUGeometry", "IMUKit", "IMULog", "IMUMQTT", "IMUMotion",
                "IMUTilt", "IMUTwin", "CIMUProcess", "IMUFusion", "IMUFusionReference",
            ]
        ),
        .testTarget(
            name: "IMUFusionTests",
            dependencies: [
                "IMUFusion", "IMUFusionReference", "IMUGeometry", "IMULog", "IMUCalibration",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "IMULogTests", dependencies: ["IMULog", "IMUGeometry"]),
        .testTarget(name: "IMUGeomagnetismTests", dependencies: ["IMUGeomagnetism"]),
        .testTarget(
            name: "IMUMotionTests",
            dependencies: [
                "IMUMotion", "IMUGeometry", "IMUDrivers", "IMUFusion", "IMUFusionReference", "IMUCalibration", "IMUTwin",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "IMUKitTests",
            dependencies: [
                "IMUKit", "IMUTwin", "IMUBus", "IMUDrivers", "IMUMotion", "IMUGeometry", "IMUCalibration", "IMUBoards", "IMUEngine",
                "IMUDevices", "IMUShare", "IMUFrontEnd", "IMUMotionKit",
            ]
        ),
        .testTarget(
            name: "IMUTiltTests",
            dependencies: [
                "IMUTilt", "IMUGeometry", "IMUMotion", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "IMUEventsTests", dependencies: ["IMUEvents", "IMUGeometry"]),
        .testTarget(name: "IMUWireTests", dependencies: ["IMUWire", "IMUFormats", "IMUEvents", "IMUDrivers", "IMUGeometry", "IMUMotion", "IMURules", "IMUMQTT"]),
        .testTarget(name: "IMUPlotTests", dependencies: ["IMUPlot"]),
        .testTarget(name: "IMURulesTests", dependencies: ["IMURules", "IMUEvents", "IMUConfigFile", "IMUTwin", "IMUBus"]),
        .testTarget(name: "IMUMQTTTests", dependencies: ["IMUMQTT", "IMUFrontEnd", "IMUConfigFile", "IMUEvents", "IMUGeometry", "IMUMotion"]),
        .testTarget(name: "IMUWebTests", dependencies: ["IMUWeb", "IMUFrontEnd", "IMUShareClient", "IMUCalibration", "IMUConfigFile"]),
        .testTarget(
            name: "IMUShareTests",
            dependencies: ["IMUShare", "IMUFrontEnd", "IMUEvents", "IMUGeometry", "IMUSensorProxy", "IMUEngine", "IMUDevices", "IMUTwin", "IMUDrivers", "IMUBus"]
        ),
        .testTarget(name: "IMUCalibrationTests", dependencies: ["IMUCalibration", "IMUGeometry", "IMULog"]),
    ],
    swiftLanguageModes: [.v6]
)

// Benchmarks (Benchmarks/, run with `bash Scripts/bench.sh`) only when IMU_BENCHMARKS is set, so a
// plain `swift build` / `swift test` neither resolves nor builds package-benchmark and its
// dependencies. The MallocInterposer trait alone: it counts allocations without jemalloc, and
// leaving out the default RuntimeInterposer trait leaves out swift-runtime-interposer.
if Context.environment["IMU_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(
        .executableTarget(
            name: "DecodeBenchmark",
            dependencies: [
                "IMUBus", "IMUDrivers", "IMUTwin", "IMUBoards",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DecodeBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ))
    package.targets.append(
        .executableTarget(
            name: "FusionBenchmark",
            dependencies: [
                "IMUFusion", "IMUFusionReference", "IMUGeometry", "IMUTwin",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FusionBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ))
}

// Fuzz targets (Fuzz/, run with `bash Scripts/fuzz.sh`) only when IMU_FUZZ is set: libFuzzer
// executables, built with `-sanitize=fuzzer,address` into their own scratch path (.build-fuzz).
if Context.environment["IMU_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzDriver", path: "Fuzz/Driver"))
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("ReplayLogFuzz", ["IMULog"]),
        ("BoardProfileFuzz", ["IMUBoards"]),
        ("RulesFileFuzz", ["IMURules"]),
        ("CalibrationFileFuzz", ["IMUCalibration"]),
        ("RegisterDecodeFuzz", ["IMUDrivers", "IMUBus"]),
        ("TOMLFuzz", ["IMUConfigFile"]),
        ("ShareRequestFuzz", ["IMUShare"]),
        ("MQTTCommandFuzz", ["IMUMQTT", "IMUFrontEnd"]),
    ]
    for target in fuzzTargets {
        package.targets.append(
            .executableTarget(name: target.name, dependencies: target.dependencies + ["FuzzDriver"], path: "Fuzz/\(target.name)"))
    }
}
