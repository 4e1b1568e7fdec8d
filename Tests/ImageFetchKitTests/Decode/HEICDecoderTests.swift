import XCTest
@testable import ImageFetchKit

final class HEICDecoderTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testHEICProbesItsPrimaryImage() throws {
        for (name, alpha) in [("still.heic", false), ("alpha.heic", true)] {
            let info = try registry.validate(try Fixture.data(name))
            XCTAssertEqual(info.format, .heic, name)
            XCTAssertEqual([info.width, info.height, info.frameCount], [64, 48, 1], name)
            XCTAssertEqual(info.hasAlpha, alpha, name)
        }
    }

    func testHEICDecodesLikeHeifConvert() throws {
        for name in ["still.heic", "alpha.heic"] {
            let image = try registry.decode(try Fixture.data(name))
            let reference = try ReferenceDecoder.decode(name, with: "heif-convert") { [$0, $1] }
            ReferenceDecoder.assertMatches(image, reference, tolerance: 2, name)
            assertPixel(image, Fixture.red, is: .opaqueRed, tolerance: 8)
            assertPixel(image, Fixture.lime, is: .opaqueLime, tolerance: 8)
        }
        XCTAssertEqual(try registry.decode(try Fixture.data("alpha.heic")).pixel(x: Fixture.white.x, y: Fixture.white.y).alpha, 0)
    }

    func testTruncatedHEICIsTruncatedBeforeAnyDecode() throws {
        let data = try Fixture.data("truncated-still.heic")
        XCTAssertEqual(decodeError { () throws(DecodeError) in try registry.validate(data) }, .truncated(.heic))
    }

    func testHEICWithoutASizePropertyIsCorrupt() throws {
        let data = try Fixture.data("corrupt.heic")
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        guard case .corrupt(.heic, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("ispe"), reason)
    }

    func testABoxLargerThanItsParentIsCorrupt() throws {
        var bytes = [UInt8](try Fixture.data("still.heic"))
        // The first box inside meta (hdlr, after meta's 12-byte header) claims 4 KB.
        let meta = try XCTUnwrap(Self.offset(of: "meta", in: bytes)) - 4
        bytes.replaceSubrange((meta + 12)..<(meta + 16), with: [0, 0, 0x10, 0])
        let data = Data(bytes)
        let error = decodeError { () throws(DecodeError) in try registry.probe(data) }
        guard case .corrupt(.heic, _)? = error else { return XCTFail("got \(String(describing: error))") }
    }

    private static func offset(of type: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(type.utf8)
        return (0...(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == pattern }
    }

    func testVerifyDecodingDecodesThePrimaryImage() throws {
        for name in ["still.heic", "alpha.heic"] {
            XCTAssertEqual(try registry.verifyDecoding(try Fixture.data(name)).format, .heic, name)
        }
    }

    /// A still image with a sound track (a camera's HEIF, like C049.heic) is one frame: only a
    /// track whose handler is `pict` or `vide` is an image sequence.
    func testOnlyAnImageTrackCountsFrames() throws {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + payload
        }
        func movie(handler: String) -> [UInt8] {
            let hdlr = box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
            let stsz = box("stsz", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x98])  // 408 samples of no fixed size
            return box("moov", box("trak", box("mdia", hdlr + box("minf", box("stbl", stsz)))))
        }
        let still = [UInt8](try Fixture.data("still.heic"))
        XCTAssertEqual(try registry.probe(Data(still + movie(handler: "soun"))).frameCount, 1)
        XCTAssertEqual(try registry.probe(Data(still + movie(handler: "pict"))).frameCount, 408)
    }
}
