import XCTest
@testable import ImageFetchKit

/// ICO and CUR files made by ImageMagick (checked against Pillow's reading by
/// scripts/make-fixtures-bmp-ico-apng), and hostile directories built from them.
final class ICODecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testAnIconReportsItsLargestImageAndCountsEveryImageAsAFrame() throws {
        let icons = try registry.validate(try Fixture.data("icons.ico"))
        XCTAssertEqual([icons.width, icons.height, icons.frameCount], [64, 64, 3])
        XCTAssertEqual(icons.format, .ico)
        XCTAssertTrue(icons.hasAlpha)
        let withPNG = try registry.validate(try Fixture.data("png256.ico"))
        XCTAssertEqual([withPNG.width, withPNG.height, withPNG.frameCount], [256, 256, 2])
    }

    func testThirtyTwoBitIconDecodesWithItsOwnAlpha() throws {
        let image = try registry.decode(try Fixture.data("icons.ico"))
        XCTAssertEqual([image.width, image.height], [64, 64])
        assertPixel(image, (16, 16), is: .opaqueRed)
        assertPixel(image, (48, 16), is: .opaqueLime)
        assertPixel(image, (16, 48), is: .opaqueBlue)
        XCTAssertEqual(image.pixel(x: 48, y: 48).alpha, 0)
    }

    func testEmbeddedPNGIsDecodedAsTheLargestImage() throws {
        let image = try registry.decode(try Fixture.data("png256.ico"))
        XCTAssertEqual([image.width, image.height], [256, 256])
        assertPixel(image, (64, 64), is: .opaqueRed)
        assertPixel(image, (192, 64), is: .opaqueLime)
        assertPixel(image, (64, 192), is: .opaqueBlue)
        assertPixel(image, (192, 192), is: .opaqueWhite)
    }

    func testPaletteIconTakesTransparencyFromItsANDMask() throws {
        let image = try registry.decode(try Fixture.data("palette.ico"))
        XCTAssertEqual([image.width, image.height], [16, 16])
        assertPixel(image, (4, 4), is: .opaqueRed)
        assertPixel(image, (4, 12), is: .opaqueBlue)
        assertPixel(image, (12, 12), is: .clear)
    }

    func testACursorIsReadAsAnIcon() throws {
        let data = try Fixture.data("cursor.cur")
        XCTAssertEqual(registry.format(of: data), .ico)
        let image = try registry.decode(data)
        XCTAssertEqual([image.width, image.height], [32, 32])
        assertPixel(image, (8, 8), is: .opaqueRed)
        XCTAssertEqual(image.pixel(x: 24, y: 24).alpha, 0)
    }

    func testTheRealSizeComesFromTheImageNotTheDirectoryByte() throws {
        var bytes = [UInt8](try Fixture.data("icons.ico"))
        // The directory's width and height bytes of every entry say 0 (256); the bitmaps say otherwise.
        for entry in 0..<3 { bytes[6 + entry * 16] = 0; bytes[6 + entry * 16 + 1] = 0 }
        let info = try registry.validate(Data(bytes))
        XCTAssertEqual([info.width, info.height], [64, 64])
    }

    func testEachMalformedDirectoryIsRefusedWithItsKind() throws {
        let icons = [UInt8](try Fixture.data("icons.ico"))
        let withPNG = [UInt8](try Fixture.data("png256.ico"))
        let pngEntry = Int(withPNG[18]) | Int(withPNG[19]) << 8 | Int(withPNG[20]) << 16  // image 1's offset
        func patched(_ base: [UInt8], _ offset: Int, _ values: [UInt8]) -> Data {
            var bytes = base
            bytes.replaceSubrange(offset..<(offset + values.count), with: values)
            return Data(bytes)
        }
        let firstImage = Int(icons[18]) | Int(icons[19]) << 8
        let cases: [(String, Data, DecodeError?)] = [
            ("no images, which sniffing already refuses", patched(icons, 4, [0, 0]), .unsupportedFormat(nil)),
            ("a directory longer than the file", patched(icons, 4, [0xFF, 0x0F]), .truncated(.ico)),
            ("an image inside the directory", try Fixture.data("corrupt.ico"), nil),
            ("two images sharing bytes", patched(icons, 6 + 16 + 12, Array(icons[18..<22])), .corrupt(.ico, reason: "images 1 and 2 overlap")),
            ("an image past the end", patched(icons, 6 + 8, [0xFF, 0xFF, 0x0F, 0]), .truncated(.ico)),
            ("an image too small for its bitmap", patched(icons, 6 + 8, [40, 0, 0, 0]), nil),
            ("a bitmap header of 99 bytes", patched(icons, firstImage, [99]), nil),
            ("a bitmap of no pixels", patched(icons, firstImage + 4, [0, 0, 0, 0]), nil),
            ("a bitmap of odd height", patched(icons, firstImage + 8, [129, 0, 0, 0]), nil),
            ("an embedded PNG cut short", Data(withPNG.prefix(pngEntry + 60)), .truncated(.ico)),
            ("an embedded PNG with a bad IHDR", patched(withPNG, pngEntry + 24, [7]), nil),
        ]
        for (name, data, expected) in cases {
            let error = decodeError { () throws(DecodeError) in try registry.decode(data) }
            if let expected {
                XCTAssertEqual(error, expected, name)
            } else {
                guard case .corrupt(.ico, let reason)? = error else { XCTFail("\(name): got \(String(describing: error))"); continue }
                XCTAssertFalse(reason.isEmpty, name)
            }
        }
    }

    func testTruncatedIconFailsValidation() throws {
        let data = try Fixture.data("truncated-icons.ico")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.ico))
    }

    /// Of two 48×48 images, the 32-bit one is reported and decoded, not the 8-bit one listed first.
    func testTheDeepestOfTheLargestImagesWins() throws {
        let data = try Fixture.data("depths.ico")
        let info = try registry.validate(data)
        XCTAssertEqual([info.width, info.height, info.frameCount], [48, 48, 2])
        assertPixel(try registry.decode(data), (24, 24), is: .opaqueBlue)
    }
}
