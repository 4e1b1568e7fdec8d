import FoundationEssentials
import FuzzTargets
import Glibc

/// Built by scripts/fuzz with `-sanitize=fuzzer,address -D FUZZING`, it hands its command line to
/// libFuzzer, which calls the target named by IMGFETCH_FUZZ_TARGET with every input. Built
/// normally, it replays files given as arguments: `imgfetch-fuzz TARGET FILE...`.
@main
enum FuzzEntry {
    static func main() {
        #if FUZZING
        guard let target = FuzzTarget.named(getenv("IMGFETCH_FUZZ_TARGET").map { String(cString: $0) } ?? "") else {
            fail("set IMGFETCH_FUZZ_TARGET to one of: \(names)")
        }
        selected = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
            selected?.run(count > 0 ? Data(bytes: bytes!, count: count) : Data())
            return 0
        })
        #else
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget.named(name) else {
            fail("usage: imgfetch-fuzz TARGET FILE...  (TARGET: \(names))")
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
            target.run(data)
        }
        #endif
    }

    private static var names: String { FuzzTarget.all.map(\.name).joined(separator: " ") }

    private static func fail(_ message: String) -> Never {
        let line = "imgfetch-fuzz: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
}

#if FUZZING
/// The target libFuzzer's callback runs; set once before fuzzing starts.
nonisolated(unsafe) private var selected: FuzzTarget?

/// libFuzzer's entry for programs with a `main` of their own (FuzzerInterface.h).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif
