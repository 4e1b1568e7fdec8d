#if canImport(Glibc)
import Glibc
#endif

extension CodecLibraries {
    /// The `Accept` header of a request that names none: the formats with an `AcceptToken` whose
    /// libraries are installed, by rank (the newer formats, then WebP), then any image. Worked out
    /// once per process, at the first download.
    static let acceptHeader: String = {
        let named = ImageFormatSpec.all.compactMap { spec -> AcceptToken? in
            guard let token = spec.accept, spec.library.map({ isInstalled($0.file) }) ?? true else { return nil }
            return token
        }.sorted { $0.rank < $1.rank }.map(\.mediaType)
        // Appended, not `joined(separator:)`: the standard library's generic `joined` looked its
        // element's conformances up at run time, a scan of every conformance record in the binary
        // on each fetching process's path (0.2 ms of a 30 ms https `get`, perf with DWARF stacks).
        var header = ""
        for mediaType in named + ["image/*", "*/*;q=0.8"] {
            if !header.isEmpty { header += "," }
            header += mediaType
        }
        return header
    }()

    /// Whether `soname` lies in a directory the dynamic loader searches: an access(2) per
    /// directory (15–45 µs each under strace -T, which inflates them; a few µs each without),
    /// where dlopen would map and relocate the library and its dependencies (milliseconds for
    /// libheif or libjxl). A library that is present but broken still fails at decode, with exit 8.
    private static func isInstalled(_ soname: String) -> Bool {
        libraryDirectories.contains { access("\($0)/\(soname)", F_OK) == 0 }
    }

    private static var libraryDirectories: [String] {
        #if arch(x86_64)
        let triplet = "x86_64-linux-gnu"
        #elseif arch(arm64)
        let triplet = "aarch64-linux-gnu"
        #else
        let triplet = ""
        #endif
        let fromEnvironment = (ProcessEnvironment.value("LD_LIBRARY_PATH") ?? "").split(separator: ":").map(String.init)
        return fromEnvironment + ["/usr/lib/\(triplet)", "/lib/\(triplet)", "/usr/local/lib", "/usr/lib", "/lib"]
    }
}
