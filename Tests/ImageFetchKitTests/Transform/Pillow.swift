import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// Pillow, the reference the transform tests compare with, run as a Python script. Debian's
/// `python3-pil` (installed by `scripts/deps test`) installs it for Debian's /usr/bin/python3,
/// which may not be the `python3` first on PATH.
enum Pillow {
    /// Runs `script` with `arguments` (in `sys.argv[1...]`) and returns what it writes to stdout.
    /// Throws XCTSkip when no Python with Pillow is installed; fails the test if the script fails.
    static func run(_ script: String, _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        let python = try interpreter()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the Pillow script failed: \(String(decoding: errors, as: UTF8.self))", file: file, line: line)
        return output
    }

    /// Writes `image` as raw RGBA8 into `directory` for a script to read with
    /// `Image.frombytes('RGBA', (width, height), data)`; returns the path.
    static func rawFile(_ image: RGBAImage, in directory: TemporaryDirectory, name: String = "input.rgba") throws -> String {
        try directory.write(Data(image.pixels), to: name).path
    }

    private static func interpreter() throws -> String {
        guard let path = interpreterPath else {
            throw XCTSkip("no python3 with Pillow is installed (scripts/deps test installs python3-pil)")
        }
        return path
    }

    /// Found once per test run: each probe starts a Python.
    private static let interpreterPath: String? = {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] where FileManager.default.isExecutableFile(atPath: candidate) {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: candidate)
            probe.arguments = ["-c", "import PIL.Image, PIL.ImageCms"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { continue }
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return candidate }
        }
        return nil
    }()
}

extension RGBAImage {
    /// The registry's decoding of fixture `name`, as the transform's input type.
    static func fixture(_ name: String) throws -> RGBAImage {
        let decoded = try DecoderRegistry.standard.decode(try Fixture.data(name))
        return RGBAImage(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
    }

    /// The pixel at (x, y) as [R, G, B, A].
    func channels(x: Int, y: Int) -> [Int] {
        let i = (y * width + x) * 4
        return (0..<4).map { Int(pixels[i + $0]) }
    }
}

/// Peak signal-to-noise ratio in dB between two RGBA images of one size, over colour
/// premultiplied by alpha (where a pixel is transparent its colour is meaningless) and alpha.
func peakSignalToNoise(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var squares = 0.0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
        let alphaA = Double(a.pixels[i + 3]), alphaB = Double(b.pixels[i + 3])
        for c in 0..<3 {
            let d = Double(a.pixels[i + c]) * alphaA / 255 - Double(b.pixels[i + c]) * alphaB / 255
            squares += d * d
        }
        squares += (alphaA - alphaB) * (alphaA - alphaB)
    }
    let meanSquare = squares / Double(a.pixels.count)
    return meanSquare == 0 ? .infinity : 10 * log10(255 * 255 / meanSquare)
}
