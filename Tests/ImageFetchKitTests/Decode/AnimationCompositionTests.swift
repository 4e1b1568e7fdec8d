import XCTest
@testable import ImageFetchKit

/// The disposal and blending fixtures (scripts/make-fixtures-transform) checked pixel by pixel
/// against what their layout says each frame must show, independently of any reference tool.
final class AnimationCompositionTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    private func frames(_ name: String) throws -> [RGBAImage] {
        let reader = try XCTUnwrap(try registry.animationReader(for: try Fixture.data(name), limits: DecodeLimits()), name)
        return try readAllFrames(reader).map(\.image)
    }

    private func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [Int] {
        let i = (y * image.width + x) * 4
        return image.pixels[i..<(i + 4)].map(Int.init)
    }

    func testGIFDisposalKeepsRestoresAndClears() throws {
        let frames = try frames("gif-dispose.gif")
        let red = [255, 0, 0, 255], blue = [0, 0, 255, 255], lime = [0, 255, 0, 255], clear = [0, 0, 0, 0]
        XCTAssertEqual(pixel(frames[0], 0, 0), red)
        XCTAssertEqual(pixel(frames[1], 4, 3), blue, "frame 2 covers (4,3)")
        XCTAssertEqual(pixel(frames[1], 7, 5), red, "its transparent centre shows frame 1")
        XCTAssertEqual(pixel(frames[2], 7, 6), red, "frame 2 restored what it covered")
        XCTAssertEqual(pixel(frames[2], 0, 0), lime)
        XCTAssertEqual(pixel(frames[2], 1, 0), red, "frame 3's transparent pixels leave red")
        XCTAssertEqual(pixel(frames[3], 0, 0), clear, "frame 3 was cleared to transparent")
        XCTAssertEqual(pixel(frames[3], 1, 0), clear)
        XCTAssertEqual(pixel(frames[3], 6, 0), red, "outside frame 3 nothing was cleared")
        XCTAssertEqual(pixel(frames[3], 15, 11), [0, 0, 0, 255], "the part of frame 4 on screen")
        XCTAssertEqual(pixel(frames[3], 14, 11), red)
        let rows = (2...10).map { pixel(frames[4], 13, $0) }
        XCTAssertEqual(rows, (0..<9).map { [lime, blue, [255, 255, 255, 255], [0, 0, 0, 255]][$0 % 4] }, "interlaced rows in place")
        XCTAssertEqual(pixel(frames[4], 15, 11), [0, 0, 0, 255], "frame 4 was kept")
    }

    func testAPNGDisposeAndBlendOperations() throws {
        let frames = try frames("apng-dispose-blend.png")
        let red = [255, 0, 0, 255], clear = [0, 0, 0, 0]
        assertClose(pixel(frames[1], 7, 5), [127, 0, 128, 255], "half-transparent blue over red")
        XCTAssertEqual(pixel(frames[1], 3, 3), red)
        XCTAssertEqual(pixel(frames[2], 7, 5), red, "dispose previous put red back")
        XCTAssertEqual(pixel(frames[2], 0, 0), [0, 255, 0, 255])
        XCTAssertEqual(pixel(frames[2], 1, 0), clear, "blend source writes transparent pixels too")
        XCTAssertEqual(pixel(frames[3], 0, 0), clear, "dispose background cleared frame 3's rectangle")
        assertClose(pixel(frames[3], 10, 6), [255, 64, 64, 255], "white at alpha 64 over red")
        XCTAssertEqual(pixel(frames[4], 1, 1), [0, 0, 0, 255], "opaque black over a cleared pixel")
        XCTAssertEqual(pixel(frames[4], 2, 1), clear, "transparent pixels blended over change nothing")
        assertClose(pixel(frames[4], 10, 6), [255, 64, 64, 255])
    }

    func testAFirstFrameDisposedAsPreviousIsCleared() throws {
        let frames = try frames("apng-first-previous.png")
        XCTAssertEqual(pixel(frames[0], 0, 0), [0, 255, 0, 255])
        XCTAssertEqual(pixel(frames[1], 0, 0), [0, 0, 0, 0], "nothing before frame 1 to restore: cleared")
        XCTAssertEqual(pixel(frames[1], 2, 2), [0, 0, 255, 128], "half-transparent blue over nothing keeps its alpha")
    }

    func testWebPBlendingAndDisposalToBackground() throws {
        let frames = try frames("webp-dispose-blend.webp")
        let red = [255, 0, 0, 255]
        assertClose(pixel(frames[1], 7, 4), [127, 0, 128, 255], "blended half-transparent blue")
        XCTAssertEqual(pixel(frames[2], 7, 4), [0, 0, 0, 0], "frame 2 disposed to transparent")
        XCTAssertEqual(pixel(frames[2], 1, 0), [0, 0, 0, 0], "unblended transparent pixels replace")
        XCTAssertEqual(pixel(frames[2], 0, 0), [0, 255, 0, 255])
        XCTAssertEqual(pixel(frames[3], 15, 11), red)
        assertClose(pixel(frames[3], 12, 8), [255, 64, 64, 255], "white at alpha 64 blended over red")
        XCTAssertEqual(pixel(frames[3], 10, 6), [255, 255, 255, 64], "and over what frame 2's disposal cleared")
    }

    /// Blending rounds: each channel within 1 of the exact result.
    private func assertClose(_ actual: [Int], _ expected: [Int], _ message: String = "", line: UInt = #line) {
        XCTAssertTrue(zip(actual, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(actual) is not within 1 of \(expected) \(message)", line: line)
    }
}
