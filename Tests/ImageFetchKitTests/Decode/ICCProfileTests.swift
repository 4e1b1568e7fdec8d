import XCTest
@testable import ImageFetchKit

/// The embedded ICC profile `decodeForTransform` hands on: from a JPEG's APP2 segments, a PNG's
/// iCCP chunk (inflated) and a WebP's ICCP chunk, compared with what ImageMagick extracts; and
/// malformed profiles dropped, never errors.
final class ICCProfileTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    private func profile(of data: Data) throws -> [UInt8]? {
        try registry.decodeForTransform(data, minimumStoredSize: nil, limits: DecodeLimits()).iccProfile
    }

    /// `convert FILE icc:OUT`: ImageMagick writes the profile it read from the file.
    private func imageMagickProfile(_ name: String) throws -> [UInt8] {
        let tool = try ReferenceTool()
        defer { tool.remove() }
        try tool.run("/usr/bin/convert", [ReferenceTool.fixture(name), "icc:" + tool.path("profile.icc")])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: tool.path("profile.icc"))))
    }

    func testTheProfileOfAJPEGAPNGAndAWebPIsTheOneImageMagickExtracts() throws {
        for name in ["icc.jpg", "icc.png", "icc.webp"] {
            let expected = try imageMagickProfile(name)
            XCTAssertGreaterThan(expected.count, 128, name)
            XCTAssertEqual(try profile(of: try Fixture.data(name)), expected, name)
        }
        let scaled = try registry.decodeForTransform(try Fixture.data("icc.jpg"), minimumStoredSize: (8, 6), limits: DecodeLimits())
        XCTAssertEqual(scaled.iccProfile, try imageMagickProfile("icc.jpg"), "a scaled decode keeps the profile")
    }

    func testImagesWithoutAProfileReportNone() throws {
        for name in ["baseline.jpg", "cmyk.jpg", "alpha.png", "rgb16.png", "lossy.webp", "alpha.webp", "animated.webp", "animated.png"] {
            XCTAssertNil(try profile(of: try Fixture.data(name)), name)
        }
    }

    /// baseline.jpg with APP2 "ICC_PROFILE" segments inserted after SOI: (sequence number, count, bytes).
    private func jpeg(withICCSegments segments: [(UInt8, UInt8, ArraySlice<UInt8>)]) throws -> Data {
        var bytes = [UInt8](try Fixture.data("baseline.jpg"))
        var inserted: [UInt8] = []
        for (number, count, part) in segments {
            let body = Array("ICC_PROFILE".utf8) + [0, number, count] + part
            inserted += [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        bytes.insert(contentsOf: inserted, at: 2)
        return Data(bytes)
    }

    func testAJPEGProfileSplitOverSegmentsIsJoinedInSequenceOrder() throws {
        let whole = try imageMagickProfile("icc.jpg")
        let parts = [whole[0..<100], whole[100..<400], whole[400...]]
        let shuffled = try jpeg(withICCSegments: [(2, 3, parts[1]), (3, 3, parts[2]), (1, 3, parts[0])])
        XCTAssertEqual(try profile(of: shuffled), whole)
    }

    func testAMalformedJPEGProfileIsDroppedAndTheImageStillDecodes() throws {
        let whole = try imageMagickProfile("icc.jpg")
        let (first, second) = (whole[0..<300], whole[300...])
        let cases: [(String, [(UInt8, UInt8, ArraySlice<UInt8>)])] = [
            ("a part missing", [(1, 3, first), (2, 3, second)]),
            ("a part twice", [(1, 2, first), (1, 2, second)]),
            ("counts that disagree", [(1, 2, first), (2, 3, second)]),
            ("sequence number 0", [(0, 2, first), (1, 2, second)]),
            ("a number beyond the count", [(1, 2, first), (3, 2, second)]),
            ("too short for a profile header", [(1, 1, whole[0..<100])]),
            ("an empty part", [(1, 1, whole[0..<0])]),
        ]
        for (label, segments) in cases {
            let data = try jpeg(withICCSegments: segments)
            let image = try registry.decodeForTransform(data, minimumStoredSize: nil, limits: DecodeLimits())
            XCTAssertNil(image.iccProfile, label)
            XCTAssertEqual([image.width, image.height], [64, 48], label)
        }
    }

    /// icc.png with its iCCP chunk's body replaced by `body` (CRC recomputed).
    private func png(withICCPBody body: [UInt8]) throws -> Data {
        let bytes = [UInt8](try Fixture.data("icc.png"))
        let type = Array("iCCP".utf8)
        guard let at = (0..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == type }) else {
            throw TestDataError(reason: "icc.png has no iCCP chunk")
        }
        let length = Int(bytes[at - 4]) << 24 | Int(bytes[at - 3]) << 16 | Int(bytes[at - 2]) << 8 | Int(bytes[at - 1])
        let crc = CRC32.checksum(type + body)
        let chunk = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: body.count >> $0) } + type + body + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> UInt32($0)) }
        return Data(bytes[..<(at - 4)] + chunk + bytes[(at + 4 + length + 4)...])
    }

    func testAMalformedPNGProfileIsDroppedAndTheImageStillDecodes() throws {
        let original = [UInt8](try Fixture.data("icc.png"))
        let at = try XCTUnwrap((0..<(original.count - 4)).first { Array(original[$0..<($0 + 4)]) == Array("iCCP".utf8) })
        let length = Int(original[at - 4]) << 24 | Int(original[at - 3]) << 16 | Int(original[at - 2]) << 8 | Int(original[at - 1])
        let body = Array(original[(at + 4)..<(at + 4 + length)])
        let nameEnd = try XCTUnwrap(body.firstIndex(of: 0))
        XCTAssertEqual(try profile(of: try png(withICCPBody: body)), try imageMagickProfile("icc.png"), "the rebuilt chunk is sound")
        var damaged = body
        for i in (nameEnd + 4)..<min(nameEnd + 20, body.count) { damaged[i] ^= 0x5A }
        let cases: [(String, [UInt8])] = [
            ("damaged compressed data", damaged),
            ("cut short", Array(body.dropLast(20))),
            ("no name terminator", Array(repeating: 0x41, count: 90)),
            ("an empty name", [0, 0] + body[(nameEnd + 2)...]),
            ("an unknown compression method", body[...nameEnd] + [1] + body[(nameEnd + 2)...]),
        ]
        for (label, chunk) in cases {
            let data = try png(withICCPBody: chunk)
            let image = try registry.decodeForTransform(data, minimumStoredSize: nil, limits: DecodeLimits())
            XCTAssertNil(image.iccProfile, label)
            XCTAssertTrue(image.pixels == (try registry.decode(data)).pixels, "\(label): the pixels are decode's")
        }
    }
}
