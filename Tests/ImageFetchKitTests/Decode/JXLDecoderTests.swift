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

    /// The shape of jxl-oxide's `squeeze_tendency_overflow.fuzz`: a container whose codestream
    /// decodes whole, followed by a brotli-compressed `Exif` box (`brob`) whose data is not brotli.
    /// djxl refuses it; so does verification, which runs libjxl to its end. The same container
    /// with a plain `Exif` box decodes.
    func testDamagedBoxAfterTheLastFrameFailsVerification() throws {
        let codestream = try Fixture.data("lossy.jxl")
        let exif: [UInt8] = Array("\0\0\0\0MM\0*\0\0\0\u{8}\0\0".utf8)
        let plain = Self.container(codestream, then: Self.box("Exif", exif))
        XCTAssertEqual(try registry.decode(plain).width, 64)

        let damaged = Self.container(codestream, then: Self.box("brob", Array("Exif".utf8) + [0xFF, 0xFE, 0x13, 0x37] + exif))
        XCTAssertEqual(try registry.validate(damaged).frameCount, 1)
        let error = decodeError { () throws(DecodeError) in try registry.decode(damaged) }
        guard case .corrupt(.jxl, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("'Exif' box"), reason)
    }

    /// An ISO-BMFF box: 32-bit size, type, payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return withUnsafeBytes(of: size.bigEndian) { Array($0) } + Array(type.utf8) + payload
    }

    /// The JPEG XL container: signature box, `ftyp`, the codestream in a `jxlc` box, then `tail`.
    static func container(_ codestream: Data, then tail: [UInt8]) -> Data {
        let signature = box("JXL ", [0x0D, 0x0A, 0x87, 0x0A])
        let ftyp = box("ftyp", Array("jxl ".utf8) + [0, 0, 0, 0] + Array("jxl ".utf8))
        return Data(signature + ftyp + box("jxlc", Array(codestream)) + tail)
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
