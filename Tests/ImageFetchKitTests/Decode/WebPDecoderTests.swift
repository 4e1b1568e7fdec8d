import XCTest
@testable import ImageFetchKit

final class WebPDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testEachWebPKindProbesWithItsAlphaAndFrames() throws {
        let expected: [(String, width: Int, frames: Int, alpha: Bool)] = [
            ("lossy.webp", 64, 1, false), ("lossless.webp", 64, 1, false),
            ("alpha.webp", 64, 1, true), ("animated.webp", 32, 3, false),
        ]
        for (name, width, frames, alpha) in expected {
            let info = try registry.validate(try Fixture.data(name))
            XCTAssertEqual(info.format, .webp, name)
            XCTAssertEqual([info.width, info.height, info.frameCount], [width, width * 3 / 4, frames], name)
            XCTAssertEqual(info.hasAlpha, alpha, name)
        }
    }

    func testLossyAndLosslessDecodeToTheQuadrantColours() throws {
        for (name, tolerance) in [("lossy.webp", 12), ("lossless.webp", 0)] {
            let image = try registry.decode(try Fixture.data(name))
            XCTAssertEqual(image.pixels.count, 64 * 48 * 4, name)
            assertPixel(image, Fixture.red, is: .opaqueRed, tolerance: tolerance)
            assertPixel(image, Fixture.lime, is: .opaqueLime, tolerance: tolerance)
            assertPixel(image, Fixture.blue, is: .opaqueBlue, tolerance: tolerance)
            assertPixel(image, Fixture.white, is: .opaqueWhite, tolerance: tolerance)
        }
    }

    func testAlphaWebPKeepsItsTransparentQuadrant() throws {
        let image = try registry.decode(try Fixture.data("alpha.webp"))
        XCTAssertEqual(image.pixel(x: Fixture.white.x, y: Fixture.white.y).alpha, 0)
        assertPixel(image, Fixture.red, is: .opaqueRed, tolerance: 12)
    }

    func testAnimatedWebPDecodesEveryFrameAndReturnsTheFirst() throws {
        let image = try registry.decode(try Fixture.data("animated.webp"))
        XCTAssertEqual([image.width, image.height, image.frameCount], [32, 24, 3])
        assertPixel(image, (x: 16, y: 12), is: .opaqueRed)
    }

    func testTruncatedWebPFailsValidation() throws {
        let data = try Fixture.data("truncated-lossy.webp")
        XCTAssertEqual(try registry.probe(data).width, 64)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.webp))
    }

    func testTrailingBytesBeyondTheRIFFSizeAreCorrupt() throws {
        let data = try Fixture.data("lossy.webp") + Data(count: 10)
        let error = decodeError { () throws(DecodeError) in try registry.validate(data) }
        guard case .corrupt(.webp, _)? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testUnknownFirstChunkIsCorrupt() throws {
        let data = try Fixture.data("corrupt.webp")
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        guard case .corrupt(.webp, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("XYZ1"), reason)
    }

    /// A still image's EXIF orientation 6 (an EXIF chunk) is applied as a JPEG's is: shown 48×64, the stored
    /// bottom-left (blue) at the top left and the stored top-left (red) at the top right.
    func testEXIFOrientationTurnsTheImage() throws {
        let data = try Fixture.data("exif-6.webp")
        let info = try registry.probe(data)
        XCTAssertEqual(info.orientation, .right)
        XCTAssertEqual([info.width, info.height, info.storedWidth, info.storedHeight], [48, 64, 64, 48])
        let image = try registry.decode(data)
        XCTAssertEqual([image.width, image.height], [48, 64])
        assertPixel(image, (x: 12, y: 16), is: .opaqueBlue, tolerance: 8)
        assertPixel(image, (x: 35, y: 16), is: .opaqueRed, tolerance: 8)
        assertPixel(image, (x: 35, y: 48), is: .opaqueLime, tolerance: 8)
        let source = try registry.decodeForTransform(data, minimumStoredSize: nil, limits: DecodeLimits())
        XCTAssertEqual([source.width, source.height], [64, 48])
        XCTAssertEqual(source.orientation, .right)
    }
}
