import XCTest
@testable import ImageFetchKit

final class DecoderRegistryTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testStandardRegistryDecodesTheFourWebFormats() {
        XCTAssertTrue(registry.supportedFormats.isSubset(of: ImageFormat.decodable), "\(registry.supportedFormats)")
        XCTAssertEqual(registry.decoder(for: .png)?.format, .png)
        for format in [ImageFormat.avif, .heic, .jxl, .tiff, .bmp, .ico] { XCTAssertEqual(registry.decoder(for: format)?.format, format) }
        XCTAssertNil(registry.decoder(for: .qoi))
    }

    func testRecognisedButUnsupportedFormatsAreNamedInTheError() throws {
        let cases: [(String, ImageFormat)] = [
            ("unsupported.qoi", .qoi),
            ("unsupported.svg", .svg),
        ]
        for (name, format) in cases {
            let data = try Fixture.data(name)
            let error = decodeError { () throws(DecodeError) in try registry.validate(data) }
            XCTAssertEqual(error, .unsupportedFormat(format), name)
            XCTAssertTrue(error?.description.hasPrefix("\(format.displayName) images are not supported") ?? false, name)
        }
    }

    func testUnknownDataIsAnUnsupportedFormatWithoutName() throws {
        let data = try Fixture.data("not-an-image.html")
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        XCTAssertEqual(error, .unsupportedFormat(nil))
        XCTAssertEqual(error?.description, "The data is not an image in a known format (JPEG, PNG, GIF, WebP, AVIF, HEIC, JPEG XL, TIFF, BMP or ICO).")
    }

    func testALowerPixelLimitRefusesAnOrdinaryImage() throws {
        let data = try Fixture.data("baseline.jpg")
        let limits = DecodeLimits(maxPixels: 64 * 48 - 1)
        XCTAssertEqual(
            decodeError { () throws(DecodeError) in try registry.probe(data, limits: limits) },
            .tooManyPixels(width: 64, height: 48, limit: 64 * 48 - 1)
        )
        XCTAssertNoThrow(try registry.probe(data, limits: DecodeLimits(maxPixels: 64 * 48)))
    }

    func testTheLimitAppliesToTheDisplayedCanvasOfAnAnimation() throws {
        let data = try Fixture.data("animated.webp")
        let error = decodeError { () throws(DecodeError) in try registry.decode(data, limits: DecodeLimits(maxPixels: 100)) }
        XCTAssertEqual(error, .tooManyPixels(width: 32, height: 24, limit: 100))
    }

    func testRegisteringADecoderReplacesTheOneForItsFormat() throws {
        let withoutPNG = DecoderRegistry(decoders: [JPEGDecoder()])
        let data = try Fixture.data("palette.png")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try withoutPNG.probe(data) }, .unsupportedFormat(.png))
        XCTAssertEqual(try withoutPNG.registering(PNGDecoder()).probe(data).width, 64)
    }

    func testADecodedImageFromOutsideMustHoldExactlyItsPixels() {
        let info = ImageInfo(format: .png, width: 2, height: 1)
        XCTAssertNotNil(DecodedImage(info: info, width: 2, height: 1, pixels: [UInt8](repeating: 0, count: 8)))
        XCTAssertNil(DecodedImage(info: info, width: 2, height: 1, pixels: [UInt8](repeating: 0, count: 7)))
    }

    func testErrorDescriptionsAreSentences() {
        let errors: [DecodeError] = [
            .unsupportedFormat(.tiff), .unsupportedFormat(nil), .truncated(.gif),
            .corrupt(.png, reason: "bit depth 7 is not allowed for colour type 2"),
            .tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000), .zeroPixels(width: 0, height: 1),
        ]
        for error in errors {
            XCTAssertTrue(error.description.first?.isUppercase ?? false, error.description)
            XCTAssertTrue(error.description.hasSuffix("."), error.description)
        }
    }
}
