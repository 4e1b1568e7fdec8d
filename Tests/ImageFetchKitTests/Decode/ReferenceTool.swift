import Foundation
import XCTest
@testable import ImageFetchKit

/// Runs the command-line tools the transform decode tests compare with (djpeg, dwebp, ImageMagick,
/// Pillow, avifdec) in a fresh temporary directory, and reads what they write. `scripts/deps test`
/// installs them; a missing tool skips the test.
struct ReferenceTool {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A path in the directory.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `tool` (found in /usr/bin or /usr/local/bin) with `arguments` and returns its standard
    /// output; throws XCTSkip when it is not installed, fails the test when it exits non-zero.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        let candidates = tool.hasPrefix("/") ? [tool] : ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"]
        guard let path = candidates.first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("\(tool) is not installed (scripts/deps test installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments.joined(separator: " "))", file: file, line: line)
        return try Data(contentsOf: output)
    }

    /// The system Python with Pillow (Debian's python3-pil), or XCTSkip.
    func pillow(_ script: String, _ arguments: [String]) throws -> Data {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("python3 is not installed") }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import PIL"]
        check.standardError = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        guard check.terminationStatus == 0 else { throw XCTSkip("Pillow is not installed (scripts/deps test installs python3-pil)") }
        return try run(python, ["-c", script] + arguments)
    }

    /// The path of fixture `name`.
    static func fixture(_ name: String) -> String { Fixture.directory.appendingPathComponent(name).path }
}

/// A binary PGM (P5), PPM (P6) or PAM (P7) image as djpeg and dwebp write it, widened to RGBA.
struct PNMImage {
    let width: Int
    let height: Int
    let rgba: [UInt8]

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        var offset = 0
        func token() -> String {
            while offset < bytes.count, bytes[offset] == 0x23 || [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) {
                if bytes[offset] == 0x23 { while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 } } else { offset += 1 }
            }
            let start = offset
            while offset < bytes.count, ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }
        let magic = token()
        var width = 0, height = 0, channels = 0
        switch magic {
        case "P5", "P6":
            width = Int(token()) ?? 0
            height = Int(token()) ?? 0
            _ = token()  // maxval, 255 here
            channels = magic == "P5" ? 1 : 3
        case "P7":
            var fields: [String: String] = [:]
            while case let key = token(), key != "ENDHDR", !key.isEmpty { fields[key] = token() }
            width = Int(fields["WIDTH"] ?? "") ?? 0
            height = Int(fields["HEIGHT"] ?? "") ?? 0
            channels = Int(fields["DEPTH"] ?? "") ?? 0
        default:
            throw TestDataError(reason: "not a binary PNM image: \(magic)")
        }
        offset += 1  // the one whitespace byte before the samples
        let samples = Array(bytes[offset...])
        guard samples.count >= width * height * channels, [1, 3, 4].contains(channels) else {
            throw TestDataError(reason: "the PNM image holds \(samples.count) bytes, not \(width * height * channels)")
        }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            for c in 0..<3 { rgba[i * 4 + c] = samples[i * channels + (channels == 1 ? 0 : c)] }
            if channels == 4 { rgba[i * 4 + 3] = samples[i * 4 + 3] }
        }
        (self.width, self.height, self.rgba) = (width, height, rgba)
    }
}

struct TestDataError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
