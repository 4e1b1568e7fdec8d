import XCTest
@testable import ImageFetchKit

/// `decodeForTransform` beyond scaling: JPEG left in stored orientation and in CMYK, the checks
/// `decode` makes, and the formats that decode as `decode` does.
final class TransformDecodeTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    private func decode(_ data: Data, atLeast minimum: (width: Int, height: Int)? = nil, limits: DecodeLimits = DecodeLimits()) throws(DecodeError) -> SourceImage {
        try registry.decodeForTransform(data, minimumStoredSize: minimum, limits: limits)
    }

    private func pixel(_ image: SourceImage, _ x: Int, _ y: Int) -> [Int] {
        let i = (y * image.width + x) * 4
        return image.pixels[i..<(i + 4)].map(Int.init)
    }

    private func assertClose(_ actual: [Int], _ expected: [Int], tolerance: Int, _ message: String, line: UInt = #line) {
        XCTAssertTrue(zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }, "\(actual) is not within \(tolerance) of \(expected): \(message)", line: line)
    }

    func testOrientation6ComesBackAsStoredWithItsOrientation() throws {
        let image = try decode(try Fixture.data("orientation-6.jpg"))
        XCTAssertEqual(image.orientation, .right)
        XCTAssertEqual([image.width, image.height], [64, 48], "stored size, not the displayed 48×64")
        assertClose(pixel(image, 16, 12), [255, 0, 0, 255], tolerance: 8, "stored top-left is red")
        assertClose(pixel(image, 16, 36), [0, 0, 255, 255], tolerance: 8, "stored bottom-left is blue")
        let half = try decode(try Fixture.data("orientation-6.jpg"), atLeast: (32, 24))
        XCTAssertEqual([half.width, half.height], [32, 24], "the minimum is in stored orientation too")
        XCTAssertEqual(half.orientation, .right)
    }

    /// ImageMagick inverts the samples of every CMYK JPEG it reads (as Pillow does), with an Adobe
    /// segment or without, so the samples as stored are 255 minus what it writes.
    private func storedCMYKAsImageMagickReadsThem(_ name: String) throws -> [UInt8] {
        let tool = try ReferenceTool()
        defer { tool.remove() }
        try tool.run("/usr/bin/convert", ["-define", "jpeg:dct-method=islow", ReferenceTool.fixture(name), "-depth", "8", "cmyk:" + tool.path("samples")])
        return try Data(contentsOf: URL(fileURLWithPath: tool.path("samples"))).map { 255 - $0 }
    }

    func testAdobeCMYKComesBackAsInvertedCMYKSamplesAsStored() throws {
        let image = try decode(try Fixture.data("cmyk.jpg"))
        XCTAssertEqual(image.colorModel, .invertedCMYK)
        let stored = try storedCMYKAsImageMagickReadsThem("cmyk.jpg")
        XCTAssertEqual(stored.count, image.pixels.count)
        XCTAssertLessThanOrEqual(zip(image.pixels, stored).map { abs(Int($0) - Int($1)) }.max() ?? 255, 1)
        assertClose(pixel(image, 16, 12), [255, 0, 0, 255], tolerance: 8, "red: full magenta and yellow ink, inverted")
        assertClose(pixel(image, 48, 36), [255, 255, 255, 255], tolerance: 8, "white: no ink, inverted")
    }

    func testCMYKWithoutAnAdobeSegmentComesBackAsPlainCMYK() throws {
        let image = try decode(try Fixture.data("cmyk-plain.jpg"))
        XCTAssertEqual(image.colorModel, .cmyk)
        let stored = try storedCMYKAsImageMagickReadsThem("cmyk-plain.jpg")
        XCTAssertEqual(stored.count, image.pixels.count)
        XCTAssertLessThanOrEqual(zip(image.pixels, stored).map { abs(Int($0) - Int($1)) }.max() ?? 255, 1)
        assertClose(pixel(image, 16, 12), [0, 255, 255, 0], tolerance: 8, "red as ink")
        assertClose(pixel(image, 48, 36), [0, 0, 0, 0], tolerance: 8, "white: no ink")
    }

    func testCMYKIsScaledToo() throws {
        let image = try decode(try Fixture.data("cmyk.jpg"), atLeast: (8, 6))
        XCTAssertEqual([image.width, image.height], [8, 6])
        XCTAssertEqual(image.colorModel, .invertedCMYK)
        assertClose(pixel(image, 2, 1), [255, 0, 0, 255], tolerance: 12, "red, inverted, at 1/8")
    }

    func testTheBombIsRefusedFromItsHeaderBeforeAnyPixelBuffer() throws {
        // 100000×100000 RGBA would be 40 GB: only the header check can stop it in time.
        let data = try Fixture.data("bomb.png")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try decode(data) }, .tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000))
        XCTAssertEqual(decodeError { () throws(DecodeError) in try decode(data, atLeast: (1, 1)) }, .tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000))
        let jpeg = try Fixture.data("photo.jpg")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try decode(jpeg, atLeast: (26, 20), limits: DecodeLimits(maxPixels: 30_000)) },
                       .tooManyPixels(width: 203, height: 157, limit: 30_000), "the limit is on the stored size, whatever the scale")
    }

    func testWhatDecodeRefusesThisRefusesAlike() throws {
        for name in ["truncated-baseline.jpg", "truncated-lossy.webp", "truncated-alpha.png", "truncated-animated.gif",
                     "corrupt.jpg", "corrupt.png", "corrupt-animated.png", "not-an-image.html", "unsupported.svg", "zero-width.png"] {
            let data = try Fixture.data(name)
            let expected = decodeError { () throws(DecodeError) in try registry.decode(data) }
            XCTAssertEqual(decodeError { () throws(DecodeError) in try decode(data, atLeast: (8, 8)) }, expected, name)
        }
    }

    func testOtherStillImagesDecodeAsDecodeDoesUprightWithoutAProfile() throws {
        for name in ["alpha.bmp", "icons.ico", "alpha.tif", "still.heic", "lossy.jxl", "alpha.png", "palette.png", "static.gif", "animated.gif"] {
            let data = try Fixture.data(name)
            let image = try decode(data, atLeast: (4, 4))
            let decoded = try registry.decode(data)
            XCTAssertEqual([image.width, image.height], [decoded.width, decoded.height], name)
            XCTAssertTrue(image.pixels == decoded.pixels, "\(name): the pixels differ from decode's")
            XCTAssertEqual(image.colorModel, .rgba, name)
            XCTAssertEqual(image.orientation, .up, name)
            XCTAssertNil(image.iccProfile, name)
        }
    }

    func testAnimationsGiveTheirFirstComposedFrame() throws {
        for name in ["animated.gif", "animated.webp", "animated.png", "gif-dispose.gif", "webp-dispose-blend.webp", "sequence.avif", "animated.jxl"] {
            let data = try Fixture.data(name)
            let image = try decode(data, atLeast: (4, 4))
            let reader = try XCTUnwrap(try registry.animationReader(for: data, limits: DecodeLimits()), name)
            let first = try XCTUnwrap(try reader.nextFrame(), name)
            XCTAssertEqual([image.width, image.height], [first.image.width, first.image.height], name)
            XCTAssertTrue(image.pixels == first.image.pixels, "\(name): not the reader's first frame")
        }
    }

    func testAVIFComesBackAsStoredWithItsIrotTurn() throws {
        let data = try Fixture.data("rotated.avif")
        let info = try registry.probe(data)
        let image = try decode(data)
        XCTAssertEqual(image.orientation, info.orientation)
        XCTAssertNotEqual(image.orientation, .up)
        XCTAssertEqual([image.width, image.height], [info.storedWidth, info.storedHeight])
        let upright = try registry.decode(data)
        let turned = DecodedImage(info: info, width: image.width, height: image.height, rgba: image.pixels).turnedUpright()
        XCTAssertTrue(turned.pixels == upright.pixels, "turning the stored pixels gives decode's upright ones")
    }
}
