import Foundation

/// Pillow as the reference for whole transforms (Tests/Tools/pillow-reference.py): it makes the
/// source pictures and measures imgfetch's variants against its own Lanczos resampling.
public enum PillowReference {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tools/pillow-reference.py")

    /// The source pictures (landscape.jpg, portrait.jpg, rotated.jpg, transparent.png), made once per
    /// test process; copy them, never write to them.
    public static func sources() throws -> URL {
        try made.get()
    }

    private static let made: Result<URL, Error> = Result {
        let directory = madeDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Shared by the whole test process, so no test owns it: it goes when the process ends.
        atexit { try? FileManager.default.removeItem(at: PillowReference.madeDirectory) }
        _ = try run(["sources", directory.path])
        return directory
    }

    private static let madeDirectory = FileManager.default.temporaryDirectory
        .appendingPathComponent("imgfetch-transform-sources-\(getpid())")

    /// The PSNR in dB of `output` against Pillow's Lanczos of the upright `source` fitted by `fit`
    /// (`inside`, `cover` or `fill`) to `output`'s size; infinity when they are equal.
    public static func psnr(source: URL, output: URL, fit: String) throws -> Double {
        let text = try run(["psnr", source.path, output.path, fit]).trimmingCharacters(in: .whitespacesAndNewlines)
        if text == "inf" { return .infinity }
        guard let value = Double(text) else { throw Failure(message: "pillow-reference.py psnr printed '\(text)'") }
        return value
    }

    /// The frame count and each frame's duration in milliseconds, as Pillow reads `file`.
    public static func frames(of file: URL) throws -> (count: Int, durations: [Int]) {
        let numbers = try run(["frames", file.path]).split(separator: "\n").compactMap { Int($0) }
        guard let count = numbers.first else { throw Failure(message: "pillow-reference.py frames printed nothing") }
        return (count, Array(numbers.dropFirst()))
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    private static func run(_ arguments: [String]) throws -> String {
        let result = try Pillow.python([script.path] + arguments)
        guard result.status == 0 else {
            throw Failure(message: "pillow-reference.py \(arguments.first ?? "") failed: \(result.errors)")
        }
        return String(decoding: result.output, as: UTF8.self)
    }
}
