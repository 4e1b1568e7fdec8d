import Foundation
import XCTest
@testable import ImageFetchKit

/// The committed images in Tests/Fixtures (made by scripts/make-fixtures): 64×48, four flat
/// quadrants — top-left red, top-right lime, bottom-left blue, bottom-right white (transparent
/// in the alpha files). Animations are 32×24 frames of red, lime, blue.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// A JPEG fixture with every marker segment of type `marker` (FF xx + length) before the
    /// first scan cut out.
    static func jpeg(_ name: String, removingSegments marker: UInt8) throws -> Data {
        let bytes = [UInt8](try data(name))
        var out = Array(bytes[0..<2])
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] != 0xDA {
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if bytes[offset + 1] != marker { out += bytes[offset..<(offset + 2 + length)] }
            offset += 2 + length
        }
        return Data(out + bytes[offset...])
    }

    /// Quadrant centres of the 64×48 images.
    static let red = (x: 16, y: 12), lime = (x: 48, y: 12), blue = (x: 16, y: 36), white = (x: 48, y: 36)
}

/// Asserts each channel of the pixel at (x, y) is within `tolerance` of `expected`.
func assertPixel(
    _ image: DecodedImage, _ point: (x: Int, y: Int), is expected: RGBA, tolerance: Int = 0,
    file: StaticString = #filePath, line: UInt = #line
) {
    let actual = image.pixel(x: point.x, y: point.y)
    let channels = [(actual.red, expected.red), (actual.green, expected.green), (actual.blue, expected.blue), (actual.alpha, expected.alpha)]
    let close = channels.allSatisfy { abs(Int($0.0) - Int($0.1)) <= tolerance }
    XCTAssertTrue(close, "pixel \(point) is \(actual), expected \(expected) ± \(tolerance)", file: file, line: line)
}

extension RGBA {
    static let opaqueRed = RGBA(red: 255, green: 0, blue: 0)
    static let opaqueLime = RGBA(red: 0, green: 255, blue: 0)
    static let opaqueBlue = RGBA(red: 0, green: 0, blue: 255)
    static let opaqueWhite = RGBA(red: 255, green: 255, blue: 255)
    static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    static func gray(_ level: UInt8) -> RGBA { RGBA(red: level, green: level, blue: level) }
}

/// Runs `body` and returns the DecodeError it throws, failing the test if it throws nothing.
func decodeError<T>(_ body: () throws(DecodeError) -> T, file: StaticString = #filePath, line: UInt = #line) -> DecodeError? {
    do {
        _ = try body()
        XCTFail("expected a DecodeError, but it succeeded", file: file, line: line)
        return nil
    } catch {
        return error
    }
}
