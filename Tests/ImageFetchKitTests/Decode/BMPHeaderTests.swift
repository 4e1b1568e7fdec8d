import XCTest
@testable import ImageFetchKit

/// Hostile BMP headers, each refused by the registry with the kind of error it deserves and
/// before any pixel buffer exists.
final class BMPHeaderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    /// A valid 2×2 24-bit BMP (rows of 6 bytes padded to 8), to break one field at a time.
    private let valid = [UInt8](TestBMP.make(width: 2, height: 2, bitCount: 24, pixels: [UInt8](repeating: 0x80, count: 16)))

    private func with(_ offset: Int, _ value: Int, bytes count: Int = 4, in base: [UInt8]? = nil) -> Data {
        var bytes = base ?? valid
        for i in 0..<count { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
        return Data(bytes)
    }

    private enum Kind { case corrupt, truncated }

    func testTheValidBaseDecodes() throws {
        XCTAssertEqual(try registry.decode(Data(valid)).pixel(x: 1, y: 1), RGBA(red: 0x80, green: 0x80, blue: 0x80))
    }

    func testEachMalformedHeaderIsRefusedWithItsKind() {
        let palette8 = [UInt8](TestBMP.make(width: 2, height: 1, bitCount: 8, palette: [UInt8](repeating: 0, count: 8), colorsUsed: 2, pixels: [0, 1, 0, 0]))
        let masks = TestBMP.make(width: 2, height: 1, bitCount: 16, compression: 3, palette: TestBMP.littleEndian([0xF800, 0x07E0, 0x001F]), pixels: [0, 0, 0, 0])
        let cases: [(String, Data, Kind)] = [
            ("header size 41", with(14, 41), .corrupt),
            ("header size 64 (OS/2 2.x)", with(14, 64), .corrupt),
            ("7 bits per pixel", with(28, 7, bytes: 2), .corrupt),
            ("0 bits per pixel", with(28, 0, bytes: 2), .corrupt),
            ("JPEG compression", with(30, 4), .corrupt),
            ("PNG compression", with(30, 5), .corrupt),
            ("compression 9", with(30, 9), .corrupt),
            ("RLE8 at 24 bits per pixel", with(30, 1), .corrupt),
            ("bit fields at 24 bits per pixel", with(30, 3), .corrupt),
            ("negative width", with(18, -2), .corrupt),
            ("height of Int32.min", with(22, Int(Int32.min)), .corrupt),
            ("top-down RLE8", with(22, -1, in: [UInt8](with(30, 1, in: [UInt8](with(28, 8, bytes: 2))))), .corrupt),
            ("pixel offset inside the headers", with(10, 20), .corrupt),
            ("pixel offset past the end", with(10, 1 << 30), .truncated),
            ("pixel data shorter than the rows", Data(valid.dropLast(1)), .truncated),
            ("size overflowing at 32 bits per pixel", with(22, Int(Int32.max), in: [UInt8](with(18, Int(Int32.max), in: [UInt8](with(28, 32, bytes: 2))))), .corrupt),
            ("file cut inside the info header", Data(valid.prefix(30)), .truncated),
            ("300 colours at 8 bits per pixel", with(46, 300, in: palette8), .corrupt),
            ("200 colours declared where 2 fit", with(46, 200, in: palette8), .corrupt),
            ("palette past the end of the file", Data(palette8.prefix(56)), .truncated),
            ("overlapping masks", with(58, 0xFFE0, in: [UInt8](masks)), .corrupt),
            ("a mask of two runs", with(54, 0xF00F, in: [UInt8](masks)), .corrupt),
            ("a mask past 16 bits", with(54, 0x1F0000, in: [UInt8](masks)), .corrupt),
            ("masks cut off", Data([UInt8](masks).prefix(58)), .truncated),
        ]
        for (name, data, kind) in cases {
            let error = decodeError { () throws(DecodeError) in try registry.decode(data) }
            switch (kind, error) {
            case (.corrupt, .corrupt(.bmp, let reason)?):
                XCTAssertFalse(reason.isEmpty, name)
            case (.truncated, .truncated(.bmp)?):
                break
            default:
                XCTFail("\(name): expected \(kind), got \(String(describing: error))")
            }
        }
    }

    func testRefusalsNameWhatIsWrong() {
        XCTAssertEqual(
            decodeError { () throws(DecodeError) in try registry.probe(with(30, 4)) }?.description,
            "The BMP data is corrupt: it holds a JPEG image, an unsupported compression."
        )
        XCTAssertEqual(
            decodeError { () throws(DecodeError) in try registry.probe(with(28, 7, bytes: 2)) }?.description,
            "The BMP data is corrupt: 7 bits per pixel does not exist."
        )
    }

    func testAHugeHeaderIsRefusedByThePixelLimitFromTheProbe() {
        let huge = with(22, 100_000, in: [UInt8](with(18, 100_000)))
        XCTAssertEqual(
            decodeError { () throws(DecodeError) in try registry.decode(huge) },
            .tooManyPixels(width: 100_000, height: 100_000, limit: DecodeLimits().maxPixels)
        )
    }

    func testZeroWidthIsAnImageWithoutPixels() {
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.probe(with(18, 0)) }, .zeroPixels(width: 0, height: 2))
    }
}
