import XCTest
@testable import ImageFetchKit

final class JXLDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testEachJXLKindProbesWithItsSizeAlphaAndFrames() throws {
        let expected: [(String, width: Int, frames: Int, alpha: Bool)] = [
            ("lossy.jxl", 64, 1, false), ("alpha.jxl", 64, 1, true), ("container.jxl", 64, 1, false), ("animated.jxl", 32, 3, true),
        ]
        // cjxl gives a GIF's frames an alpha channel, for the GIF's transparent index.
        for (name, width, frames, alpha) in expected {
            let info = try registry.validate(try Fixture.data(name))
            XCTAssertEqual(info.format, .jxl, name)
            XCTAssertEqual([info.width, info.height, info.frameCount], [width, width * 3 / 4, frames], name)
            XCTAssertEqual(info.hasAlpha, alpha, name)
        }
    }

    func testJXLDecodesLikeDjxl() throws {
        for name in ["lossy.jxl", "alpha.jxl", "container.jxl", "animated.jxl"] {
            let image = try registry.decode(try Fixture.data(name))
            let reference = try ReferenceDecoder.decode(name, with: "djxl") { [$0, $1] }
            ReferenceDecoder.assertMatches(image, reference, tolerance: 2, name)
        }
        let alpha = try registry.decode(try Fixture.data("alpha.jxl"))
        assertPixel(alpha, Fixture.red, is: .opaqueRed)
        XCTAssertEqual(alpha.pixel(x: Fixture.white.x, y: Fixture.white.y).alpha, 0)
    }

    func testAnimatedJXLDecodesEveryFrameAndReturnsTheFirst() throws {
        let image = try registry.decode(try Fixture.data("animated.jxl"))
        XCTAssertEqual([image.width, image.height, image.frameCount], [32, 24, 3])
        assertPixel(image, (x: 16, y: 12), is: .opaqueRed)
    }

    /// A bare codestream cut inside its last frame passes the header checks (libjxl skips no
    /// pixel data it is not asked for) and is caught when decoded; a container's box sizes catch
    /// a cut file at once.
    func testTruncatedJXLIsTruncated() throws {
        let bare = try Fixture.data("truncated-lossy.jxl")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.decode(bare) }, .truncated(.jxl))
        let container = try Fixture.data("truncated-container.jxl")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(container) }, .truncated(.jxl))
    }

    func testAnimationCutBeforeItsLastFrameHeaderIsTruncatedAtProbe() throws {
        let whole = try Fixture.data("animated.jxl")
        let cut = whole.prefix(whole.count / 2)
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.probe(cut) }, .truncated(.jxl))
    }

    func testContainerWithoutACodestreamIsCorrupt() throws {
        let data = try Fixture.data("corrupt.jxl")
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        guard case .corrupt(.jxl, _)? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testThePixelLimitIsCheckedFromTheSizeHeaderBeforeLibjxlReadsFurther() throws {
        // A bare codestream header declaring 262144×262144 (not small; U32 selector 3 for both).
        var bits: [Bool] = [false]
        func put(_ value: Int, _ count: Int) { for i in 0..<count { bits.append(value >> i & 1 == 1) } }
        put(3, 2); put(262_143, 30); put(0, 3); put(3, 2); put(262_143, 30); put(1, 1)
        var bytes: [UInt8] = [0xFF, 0x0A]
        for start in stride(from: 0, to: bits.count, by: 8) {
            bytes.append(bits[start..<min(start + 8, bits.count)].enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) })
        }
        let data = Data(bytes)
        XCTAssertEqual(
            decodeError { () throws(DecodeError) in try registry.probe(data) },
            .tooManyPixels(width: 262_144, height: 262_144, limit: DecodeLimits().maxPixels)
        )
    }
}
