// swift-tools-version:5.9
// The Swift package of toolnexus: the UniFFI-generated Swift API over the Rust library
// libtoolnexus_ffi, whose C interface is the module ToolnexusFFI.
//
// Built on a Mac (for iOS or macOS), ToolnexusFFI is ToolnexusFFI.xcframework beside this file:
// the static library for each platform with the generated header and module map, made as the
// README says. Built elsewhere (Linux), it is the generated header and module map alone, and
// the shared library libtoolnexus_ffi.so is linked from the linker's search path (`swift build
// -Xlinker -L<folder>`) and found at run time like any other (LD_LIBRARY_PATH, an rpath or a
// system folder).

import PackageDescription

#if canImport(Darwin)
let ffi: Target = .binaryTarget(name: "ToolnexusFFI", path: "ToolnexusFFI.xcframework")
let linkFFI: [LinkerSetting] = []
#else
let ffi: Target = .systemLibrary(name: "ToolnexusFFI", path: "Sources/ToolnexusFFI/include")
let linkFFI: [LinkerSetting] = [.linkedLibrary("toolnexus_ffi")]
#endif

let package = Package(
    name: "Toolnexus",
    platforms: [.iOS(.v13), .macOS(.v10_15)],
    products: [
        .library(name: "Toolnexus", targets: ["Toolnexus"]),
    ],
    targets: [
        ffi,
        .target(
            name: "Toolnexus",
            dependencies: ["ToolnexusFFI"],
            path: "Sources/Toolnexus",
            linkerSettings: linkFFI
        ),
    ]
)
