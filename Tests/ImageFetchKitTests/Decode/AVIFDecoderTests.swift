import XCTest
@testable import ImageFetchKit

final class AVIFDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testEachAVIFKindProbesWithItsSizeAlphaAndFrames() throws {
        let expected: [(String, width: Int, frames: Int, alpha: Bool)] = [
            ("still.avif", 64, 1, false), ("alpha.avif", 64, 1, true), ("sequence.avif", 32, 3, false),
        ]
        for (name, width, frames, alpha) in expected {
            let info = try registry.validate(try Fixture.data(name))
            XCTAssertEqual(info.format, .avif, name)
            XCTAssertEqual([info.width, info.height, info.frameCount], [width, width * 3 / 4, frames], name)
            if name != "sequence.avif" { XCTAssertEqual(info.hasAlpha, alpha, name) }
        }
    }

    func testStillAVIFDecodesLikeAvifdec() throws {
        for name in ["still.avif", "alpha.avif"] {
            let image = try registry.decode(try Fixture.data(name))
            let reference = try ReferenceDecoder.decode(name, with: "avifdec") { [$0, $1] }
            ReferenceDecoder.assertMatches(image, reference, tolerance: 2, name)
            assertPixel(image, Fixture.red, is: .opaqueRed, tolerance: 8)
            assertPixel(image, Fixture.blue, is: .opaqueBlue, tolerance: 8)
        }
        XCTAssertEqual(try registry.decode(try Fixture.data("alpha.avif")).pixel(x: Fixture.white.x, y: Fixture.white.y).alpha, 0)
    }

    func testSequenceDecodesEveryFrameAndReturnsTheFirst() throws {
        let image = try registry.decode(try Fixture.data("sequence.avif"))
        XCTAssertEqual([image.width, image.height, image.frameCount], [32, 24, 3])
        assertPixel(image, (x: 16, y: 12), is: .opaqueRed, tolerance: 8)
    }

    func testTruncatedAVIFIsTruncatedBeforeAnyDecode() throws {
        for name in ["truncated-still.avif", "truncated-sequence.avif"] {
            let data = try Fixture.data(name)
            XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.avif), name)
        }
    }

    func testAVIFWithoutASizePropertyIsCorrupt() throws {
        let data = try Fixture.data("corrupt.avif")
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        guard case .corrupt(.avif, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("ispe"), reason)
    }

    func testThePixelLimitIsCheckedFromTheSizeProperty() throws {
        let data = try Fixture.data("still.avif")
        let error = decodeError { () throws(DecodeError) in try registry.decode(data, limits: DecodeLimits(maxPixels: 100)) }
        XCTAssertEqual(error, .tooManyPixels(width: 64, height: 48, limit: 100))
    }

    func testVerifyDecodingDecodesEveryFrameWithoutKeepingThem() throws {
        for name in ["still.avif", "alpha.avif", "sequence.avif"] {
            XCTAssertEqual(try registry.verifyDecoding(try Fixture.data(name)).format, .avif, name)
        }
        // The coded frames (the mdat box's payload, the file's last box) overwritten: the header
        // checks pass, decoding fails.
        var bytes = [UInt8](try Fixture.data("sequence.avif"))
        let mdat = try XCTUnwrap((0..<(bytes.count - 4)).last { bytes[$0..<($0 + 4)].elementsEqual("mdat".utf8) })
        bytes.replaceSubrange((mdat + 4)..<bytes.count, with: [UInt8](repeating: 0xFF, count: bytes.count - mdat - 4))
        let data = Data(bytes)
        XCTAssertNoThrow(try registry.validate(data))
        XCTAssertNotNil(decodeError { () throws(DecodeError) in try registry.verifyDecoding(data) })
    }

    func testIrotTurnsTheImageAsAnOrientation() throws {
        // Stored 64×48, turned a quarter anticlockwise: the stored top-right (lime) is shown top-left.
        let data = try Fixture.data("rotated.avif")
        let info = try registry.validate(data)
        XCTAssertEqual([info.width, info.height], [48, 64])
        XCTAssertEqual(info.orientation, .left)
        let image = try registry.decode(data)
        XCTAssertEqual([image.width, image.height], [48, 64])
        assertPixel(image, (x: 12, y: 16), is: .opaqueLime, tolerance: 8)
        assertPixel(image, (x: 12, y: 48), is: .opaqueRed, tolerance: 8)
        assertPixel(image, (x: 36, y: 16), is: .opaqueWhite, tolerance: 8)
    }

    /// `imir` mirrors as libheif mirrors it (heif-convert is the reference): axis 0 top to bottom,
    /// axis 1 left to right. libavif applies neither it nor `irot`; imgfetch does.
    func testImirMirrorsTheImageAsHeifConvertDoes() throws {
        for (name, orientation, topLeft) in [("mirror-0.avif", ImageOrientation.downMirrored, RGBA.opaqueBlue), ("mirror-1.avif", .upMirrored, .opaqueLime)] {
            let data = try Fixture.data(name)
            XCTAssertEqual(try registry.probe(data).orientation, orientation, name)
            let image = try registry.decode(data)
            XCTAssertEqual([image.width, image.height], [64, 48], name)
            assertPixel(image, Fixture.red, is: topLeft, tolerance: 8)
            let reference = try ReferenceDecoder.decode(name, with: "heif-convert") { [$0, $1] }
            ReferenceDecoder.assertMatches(image, reference, tolerance: 4, name)
            let source = try registry.decodeForTransform(data, minimumStoredSize: nil, limits: DecodeLimits())
            XCTAssertEqual(source.orientation, orientation, name)
        }
    }

    /// BT.2020 constant luminance (matrix 10), which libavif refuses to convert ("Reformat
    /// failed"), decodes as libheif decodes it (heif-convert, and through it ImageMagick and
    /// libvips): with BT.2020's non-constant coefficients, so to the very pixels of the same
    /// samples tagged 9.
    func testConstantLuminanceConvertsWithTheNonConstantCoefficientsAsHeifConvertDoes() throws {
        let constant = try Fixture.data("bt2020-cl.avif")
        let image = try registry.decode(constant)
        XCTAssertEqual(image.pixels, try registry.decode(try Fixture.data("bt2020-ncl.avif")).pixels)
        // The rule it follows: libheif decodes the two tags alike (its chroma upsampling and
        // colour handling are its own, so its pixels are compared with its own).
        let heif = try ["bt2020-cl.avif", "bt2020-ncl.avif"].map { name in
            try ReferenceDecoder.decode(name, with: "heif-convert") { [$0, $1] }
        }
        ReferenceDecoder.assertMatches(heif[0], heif[1], tolerance: 0, "heif-convert's bt2020-cl.avif against its bt2020-ncl.avif")
        XCTAssertEqual(try registry.verifyDecoding(constant).format, .avif)
        let source = try registry.decodeForTransform(constant, minimumStoredSize: nil, limits: DecodeLimits())
        XCTAssertEqual([source.width, source.height], [16, 16])
    }

    /// What verification accepts, a conversion converts: a matrix libavif converts to RGB under no
    /// stand-in (SMPTE ST 2085, 11) fails `--decode` as it fails the transform, naming the matrix.
    func testAMatrixLibavifCannotConvertFailsVerificationAsItFailsConversion() throws {
        let data = try Fixture.data("st2085.avif")
        XCTAssertNoThrow(try registry.validate(data))
        for (what, error) in [
            ("verification", decodeError { () throws(DecodeError) in try registry.verifyDecoding(data) }),
            ("conversion", decodeError { () throws(DecodeError) in try registry.decode(data) }),
        ] {
            guard case .corrupt(.avif, let reason)? = error else { XCTFail("\(what): got \(String(describing: error))"); continue }
            XCTAssertTrue(reason.contains("matrix coefficients 11"), "\(what): \(reason)")
        }
    }
}
