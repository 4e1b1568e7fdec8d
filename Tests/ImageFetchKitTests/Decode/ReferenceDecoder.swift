import Foundation
import XCTest
@testable import ImageFetchKit

/// The formats' own Debian command-line decoders (avifdec, heif-convert, djxl, ImageMagick for
/// TIFF), run on a fixture to write a PNG that the registry's PNG decoder reads back: the image
/// imgfetch's decode is compared with. `scripts/deps test` installs them.
enum ReferenceDecoder {
    /// Decodes fixture `name` with `tool` (arguments: input, output PNG), or throws XCTSkip when
    /// the tool is not installed.
    static func decode(_ name: String, with tool: String, arguments: (String, String) -> [String]) throws -> DecodedImage {
        guard let path = ["/usr/bin", "/usr/local/bin"].map({ "\($0)/\(tool)" }).first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("\(tool) is not installed (scripts/deps test installs it)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments(Fixture.directory.appendingPathComponent(name).path, output)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(name)")
        return try DecoderRegistry.standard.decode(Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// Asserts `image` has the reference's size and every pixel within `tolerance` per channel
    /// (colour is not compared where both are fully transparent).
    static func assertMatches(_ image: DecodedImage, _ reference: DecodedImage, tolerance: Int, _ name: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual([image.width, image.height], [reference.width, reference.height], name, file: file, line: line)
        guard image.width == reference.width, image.height == reference.height else { return }
        var worst = 0
        var worstPixel = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let transparent = image.pixels[i + 3] == 0 && reference.pixels[i + 3] == 0
            for c in (transparent ? 3 : 0)..<4 where abs(Int(image.pixels[i + c]) - Int(reference.pixels[i + c])) > worst {
                worst = abs(Int(image.pixels[i + c]) - Int(reference.pixels[i + c]))
                worstPixel = i / 4
            }
        }
        let (x, y) = (worstPixel % image.width, worstPixel / image.width)
        XCTAssertLessThanOrEqual(
            worst, tolerance,
            "\(name): the largest channel difference from the reference, at (\(x), \(y)): \(image.pixel(x: x, y: y)) where the reference has \(reference.pixel(x: x, y: y))",
            file: file, line: line
        )
    }
}
