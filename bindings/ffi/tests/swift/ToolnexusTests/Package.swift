// swift-tools-version:5.9
// The Swift tests of toolnexus, a package that uses the Toolnexus package the way an app does:
// `conformance` runs the shared suite (conformance/v1/) through the Swift API, `api` exercises
// the API as an app calls it. Each prints `N passed, N failed` and exits non-zero on a failure.
// `auth-client` is the client of the official MCP conformance suite's authorization scenarios,
// its HTTP through URLSession.
// `memory` (run by `cargo xtask bench memory`) calls every entry point 100,000 times and
// reports the resident set size. `bench` (run by `cargo xtask bench ffi`, built for release)
// times the entry points a screen uses, over the core's benchmark payloads.

import PackageDescription

let package = Package(
    name: "ToolnexusTests",
    dependencies: [
        .package(name: "Toolnexus", path: "../../../swift"),
    ],
    targets: [
        .target(name: "JSONText", path: "Sources/JSONText"),
        .executableTarget(
            name: "conformance",
            dependencies: ["JSONText", .product(name: "Toolnexus", package: "Toolnexus")],
            path: "Sources/Conformance"
        ),
        .executableTarget(
            name: "api",
            dependencies: ["JSONText", .product(name: "Toolnexus", package: "Toolnexus")],
            path: "Sources/Api"
        ),
        .executableTarget(
            name: "auth-client",
            dependencies: ["JSONText", .product(name: "Toolnexus", package: "Toolnexus")],
            path: "Sources/AuthClient"
        ),
        .executableTarget(
            name: "memory",
            dependencies: [.product(name: "Toolnexus", package: "Toolnexus")],
            path: "Sources/Memory"
        ),
        .executableTarget(
            name: "bench",
            dependencies: [.product(name: "Toolnexus", package: "Toolnexus")],
            path: "Sources/Bench"
        ),
    ]
)
