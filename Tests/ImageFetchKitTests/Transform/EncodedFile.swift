import Foundation
import XCTest
@testable import ImageFetchKit

/// What the encoder tests read back from encoded bytes: the container's segments or chunks,
/// to show no metadata was written, and test images to encode.
enum EncodedFile {
    /// The marker codes of a JPEG's segments before its first scan (0xE0 = APP0, 0xDB = DQT, …).
    static func jpegMarkers(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var markers: [UInt8] = [], offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] != 0xDA {
            markers.append(bytes[offset + 1])
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return markers
    }

    /// A PNG's chunk types in order.
    static func pngChunks(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        var chunks: [String] = [], offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            chunks.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += 12 + length
        }
        return chunks
    }

    /// A WebP's RIFF chunk types in order (VP8X, ALPH, VP8 , ANIM, ANMF, …).
    static func webpChunks(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        var chunks: [String] = [], offset = 12
        while offset + 8 <= bytes.count {
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            chunks.append(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self))
            offset += 8 + size + (size & 1)
        }
        return chunks
    }

    /// The registry's decoding of `data`, as an RGBAImage.
    static func decode(_ data: Data) throws -> RGBAImage {
        let decoded = try DecoderRegistry.standard.decode(data)
        return RGBAImage(width: decoded.width, height: decoded.height, pixels: decoded.pixels)
    }

    /// An opaque, smooth image (gradients, no edges): what lossy codecs keep well.
    static func smoothImage(width: Int, height: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(x * 255 / max(width - 1, 1))
                pixels[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                pixels[i + 2] = UInt8(128 + 100 * sin(Double(x + y) / 12))
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// `image` with every pixel made opaque.
    static func opaque(_ image: RGBAImage) -> RGBAImage {
        var pixels = image.pixels
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// Runs `tool` (from /usr/bin) with `arguments`; its standard output. Skips when not installed.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let path = "/usr/bin/\(tool)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw XCTSkip("\(tool) is not installed (scripts/deps test installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments.joined(separator: " "))")
        return String(decoding: output, as: UTF8.self)
    }
}
