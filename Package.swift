// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "imgfetch",
    products: [
        .executable(name: "imgfetch", targets: ["imgfetch"]),
        .library(name: "ImageFetchKit", targets: ["ImageFetchKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C libraries. libcurl is loaded at first network use (dlopen), not linked: see
        // Sources/CCurl/include/CCurl.h; the codec libraries likewise at first decode: see
        // Sources/CImageCodecs/include/CImageCodecs.h. Only SQLite, which every run needs, is linked,
        // and statically (libsqlite3.a, see Sources/CSQLite/module.modulemap).
        .target(name: "CLibraryLoading", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CCurl", dependencies: ["CLibraryLoading"]),
        .target(name: "CImageCodecs", dependencies: ["CLibraryLoading"]),
        // libcrypto, likewise at the remote cache tier's first content hash: see Sources/CCrypto/include/CCrypto.h.
        .target(name: "CCrypto", dependencies: ["CLibraryLoading"]),
        // CRC-32C of the remote tier's objects, by the CPU's crc32 instruction where it has one.
        .target(name: "CCRC32C"),
        // The transform resampler's two passes in 16-bit fixed point (SSE2's pmaddwd where there is SSE2).
        .target(name: "CResample"),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Header-only: the glibc calls the Glibc module does not export (mallopt, pthread_setname_np).
        .systemLibrary(name: "CGlibcExtras"),

        .target(
            name: "ImageFetchKit",
            dependencies: ["CCurl", "CCrypto", "CCRC32C", "CImageCodecs", "CResample", "CSQLite", "CGlibcExtras"],
            exclude: ["Decode/README.md"]  // how to add a format
        ),
        .executableTarget(
            name: "imgfetch",
            dependencies: [
                "ImageFetchKit", "CGlibcExtras",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The toolchain's lld packs the binary's 39k relative relocations into a compact
            // table (DT_RELR, glibc 2.36+) that the dynamic loader reads and applies at every
            // start: a cache hit ran 300k fewer instructions and took 15 fewer page faults.
            // --no-export-dynamic undoes the static Swift runtime's -export-dynamic, which put the
            // 2200 public symbols of ImageFetchKit and argument-parser in the dynamic symbol table
            // for nothing (nothing loads this executable as a library): a hit ran 71k fewer
            // instructions and took 22 fewer page faults.
            linkerSettings: [.unsafeFlags([
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
            ])]
        ),
        // The project's test HTTP server (Tests/Server) and its Swift harness, shared by the test targets.
        .target(
            name: "TestSupport",
            path: "Tests/Support"
        ),
        // Test-only: drives one DiskCache per process, so cache tests can run and SIGKILL real processes.
        .executableTarget(
            name: "cache-hammer",
            dependencies: ["ImageFetchKit", "TestSupport"],
            path: "Tests/Tools/CacheHammer"
        ),
        // Fuzz targets over every parser of outside bytes (Tests/Fuzz): run by libFuzzer through
        // imgfetch-fuzz (scripts/fuzz builds it with -sanitize=fuzzer,address), and replayed on
        // saved inputs by FuzzRegressionTests.
        .target(
            name: "FuzzTargets",
            dependencies: ["ImageFetchKit"],
            path: "Tests/Fuzz/Targets"
        ),
        .executableTarget(
            name: "imgfetch-fuzz",
            dependencies: ["FuzzTargets"],
            path: "Tests/Fuzz/Driver",
            // gold fails on the sanitizers' instrumented objects (an internal error reading DWARF).
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        ),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["FuzzTargets", "TestSupport"]
        ),
        .testTarget(
            name: "ImageFetchKitTests",
            dependencies: ["ImageFetchKit", "TestSupport"],
            exclude: []
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["ImageFetchKit", "TestSupport"]
        ),
        // The command line's own logic, in process: the executable's types under @testable import.
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["imgfetch", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
    ]
)
