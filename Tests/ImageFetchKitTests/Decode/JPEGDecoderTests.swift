import XCTest
@testable import ImageFetchKit

final class JPEGDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testBaselineProbeReportsSizeAndNoAlpha() throws {
        let info = try registry.validate(try Fixture.data("baseline.jpg"))
        XCTAssertEqual(info, ImageInfo(format: .jpeg, width: 64, height: 48))
    }

    func testProgressiveIsReportedAsProgressive() throws {
        let info = try registry.validate(try Fixture.data("progressive.jpg"))
        XCTAssertEqual([info.width, info.height, info.frameCount], [64, 48, 1])
        XCTAssertTrue(info.isProgressive)
    }

    func testBaselineDecodesToKnownQuadrantColours() throws {
        let image = try registry.decode(try Fixture.data("baseline.jpg"))
        XCTAssertEqual(image.pixels.count, 64 * 48 * 4)
        assertPixel(image, Fixture.red, is: .opaqueRed, tolerance: 8)
        assertPixel(image, Fixture.lime, is: .opaqueLime, tolerance: 8)
        assertPixel(image, Fixture.blue, is: .opaqueBlue, tolerance: 8)
        assertPixel(image, Fixture.white, is: .opaqueWhite, tolerance: 8)
    }

    func testProgressiveDecodesLikeBaseline() throws {
        let image = try registry.decode(try Fixture.data("progressive.jpg"))
        assertPixel(image, Fixture.red, is: .opaqueRed, tolerance: 8)
        assertPixel(image, Fixture.blue, is: .opaqueBlue, tolerance: 8)
    }

    func testGrayDecodesToEqualChannelsAtTheLuma() throws {
        let image = try registry.decode(try Fixture.data("gray.jpg"))
        assertPixel(image, Fixture.red, is: .gray(76), tolerance: 6)  // 0.299 × 255
        assertPixel(image, Fixture.white, is: .gray(255), tolerance: 6)
    }

    func testCMYKDecodesToRGB() throws {
        let data = try Fixture.data("cmyk.jpg")
        XCTAssertEqual(try registry.validate(data).width, 64)
        let image = try registry.decode(data)
        assertPixel(image, Fixture.red, is: .opaqueRed, tolerance: 24)
        assertPixel(image, Fixture.blue, is: .opaqueBlue, tolerance: 24)
        assertPixel(image, Fixture.white, is: .opaqueWhite, tolerance: 24)
    }

    func testOrientation6IsReportedAndDecodedTurnedClockwise() throws {
        let data = try Fixture.data("orientation-6.jpg")
        let info = try registry.probe(data)
        XCTAssertEqual(info.orientation, .right)
        XCTAssertEqual([info.width, info.height, info.storedWidth, info.storedHeight], [48, 64, 64, 48])
        let image = try registry.decode(data)
        XCTAssertEqual([image.width, image.height], [48, 64])
        // Stored top-left (red) is displayed top-right; stored bottom-left (blue) top-left.
        assertPixel(image, (x: 35, y: 16), is: .opaqueRed, tolerance: 8)
        assertPixel(image, (x: 35, y: 48), is: .opaqueLime, tolerance: 8)
        assertPixel(image, (x: 11, y: 16), is: .opaqueBlue, tolerance: 8)
    }

    func testTruncatedJPEGProbesButFailsValidation() throws {
        let data = try Fixture.data("truncated-baseline.jpg")
        XCTAssertEqual(try registry.probe(data).width, 64)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.jpeg))
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.decode(data) }, .truncated(.jpeg))
    }

    func testJPEGCutInsideItsHeaderIsTruncated() throws {
        let data = try Fixture.data("baseline.jpg").prefix(30)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.probe(data) }, .truncated(.jpeg))
    }

    func testBrokenMarkerChainIsCorrupt() throws {
        let data = try Fixture.data("corrupt.jpg")
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        guard case .corrupt(.jpeg, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("marker"), reason)
    }

    func testPaddingAfterEOIIsAccepted() throws {
        let data = try Fixture.data("baseline.jpg") + Data([0, 0, 0x0A])
        XCTAssertNoThrow(try registry.validate(data))
    }

    func testAStreamWithoutTablesDoesNotBorrowThoseOfTheLastImageDecoded() throws {
        XCTAssertNoThrow(try registry.decode(try Fixture.data("baseline.jpg")))  // leaves a used decompressor in the pool
        let data = try Fixture.jpeg("baseline.jpg", removingSegments: 0xDB)
        let error = decodeError { () throws(DecodeError) in try registry.decode(data) }
        guard case .corrupt(.jpeg, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("Quantization table"), reason)
    }

    func testManyThreadsDecodeAtOnceWithTheSameResult() throws {
        let data = try Fixture.data("baseline.jpg")
        let expected = try registry.decode(data)
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            results.append(try? DecoderRegistry.standard.decode(data))
        }
        XCTAssertEqual(results.all.count, 32)
        XCTAssertTrue(results.all.allSatisfy { $0 == expected })
    }
}

/// Collects results from concurrent work.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [DecodedImage?] = []
    func append(_ item: DecodedImage?) { lock.withLock { items.append(item) } }
    var all: [DecodedImage?] { lock.withLock { items } }
}
