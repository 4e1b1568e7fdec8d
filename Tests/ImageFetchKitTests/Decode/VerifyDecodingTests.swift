import XCTest
@testable import ImageFetchKit

final class VerifyDecodingTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testEveryGoodFixtureVerifiesWithItsProbedInfo() throws {
        let names = ["baseline.jpg", "progressive.jpg", "cmyk.jpg", "gray.jpg", "orientation-6.jpg", "palette.png",
                     "rgb16.png", "interlaced.png", "alpha.png", "static.gif", "animated.gif", "lossy.webp",
                     "lossless.webp", "alpha.webp", "animated.webp"]
        for name in names {
            let data = try Fixture.data(name)
            XCTAssertEqual(try registry.verifyDecoding(data), try registry.probe(data), name)
        }
    }

    func testJPEGWithoutQuantizationTablesFailsBothDecodeAndVerify() throws {
        let data = try Fixture.jpeg("baseline.jpg", removingSegments: 0xDB)
        XCTAssertNoThrow(try registry.validate(data), "the marker structure is still complete")
        for error in [
            decodeError { () throws(DecodeError) in try registry.verifyDecoding(data) },
            decodeError { () throws(DecodeError) in try registry.decode(data) },
        ] {
            guard case .corrupt(.jpeg, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
            XCTAssertTrue(reason.contains("Quantization table"), reason)
        }
    }

    func testDamagedPNGDataFailsVerification() throws {
        let data = try Fixture.data("corrupt-data.png")
        let error = decodeError { () throws(DecodeError) in try registry.verifyDecoding(data) }
        guard case .corrupt(.png, _)? = error else { return XCTFail("got \(String(describing: error))") }
    }

    func testTheBombIsRefusedBeforeVerification() throws {
        let data = try Fixture.data("bomb.png")
        XCTAssertEqual(
            decodeError { () throws(DecodeError) in try registry.verifyDecoding(data) },
            .tooManyPixels(width: 100_000, height: 100_000, limit: 100_000_000)
        )
    }
}
