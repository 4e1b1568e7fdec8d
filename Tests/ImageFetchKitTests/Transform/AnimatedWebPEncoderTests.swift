import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

final class AnimatedWebPEncoderTests: XCTestCase {
    private static let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 128]]

    func testFramesDurationsAndLoopCountSurviveAsWebpmuxAndPillowReadThem() throws {
        let encoder = try AnimatedWebPEncoder(width: 40, height: 30, loopCount: 3, quality: 90)
        for (colour, duration) in zip(Self.colours, [100, 250, 40]) {
            try encoder.add(Self.flat(colour, width: 40, height: 30), durationMilliseconds: duration)
        }
        let data = try encoder.finish()
        let info = try DecoderRegistry.standard.probe(data)
        XCTAssertEqual([info.width, info.height, info.frameCount], [40, 30, 3])
        XCTAssertEqual(Set(EncodedFile.webpChunks(data)), ["VP8X", "ANIM", "ANMF"], "no ICCP, EXIF or XMP chunk")
        XCTAssertEqual(EncodedFile.decodeFirstFrameCentre(data), [255, 0, 0, 255], accuracy: 8)

        let directory = try TemporaryDirectory(prefix: "imgfetch-animation")
        let file = try directory.write(data, to: "animation.webp").path
        let mux = try EncodedFile.run("webpmux", ["-info", file])
        XCTAssertTrue(mux.contains("Loop Count : 3"), mux)
        XCTAssertEqual(Self.webpmuxDurations(mux), [100, 250, 40], mux)

        let frames = try Pillow.run("""
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1])
            for index in range(image.n_frames):
                image.seek(index)
                pixel = image.convert('RGBA').getpixel((20, 15))  # loads the frame, which sets its duration
                print(image.info['duration'], *pixel)
            """, [file])
        let rows = String(decoding: frames, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        XCTAssertEqual(rows.map { $0.first }, [100, 250, 40], "Pillow's durations")
        for (row, colour) in zip(rows, Self.colours) {
            XCTAssertEqual(Array(row.dropFirst()), colour.map(Int.init), accuracy: 8, "a frame's centre, as Pillow decodes it")
        }
    }

    func testFortyFramesAddedOneAtATimeMakeFortyFrames() throws {
        let encoder = try AnimatedWebPEncoder(width: 64, height: 48, loopCount: 0, quality: 60)
        var source = ResamplerTests.detailedImage(width: 64, height: 48)
        for frame in 0..<40 {
            source.pixels.withUnsafeMutableBufferPointer { p in for i in stride(from: 0, to: p.count, by: 4) { p[i] &+= UInt8(frame * 6) } }
            try encoder.add(source, durationMilliseconds: 50)
        }
        let info = try DecoderRegistry.standard.probe(try encoder.finish())
        XCTAssertEqual(info.frameCount, 40)
    }

    func testMisuseIsRefusedWithTypedErrors() throws {
        let encoder = try AnimatedWebPEncoder(width: 8, height: 8, loopCount: 0, quality: 80)
        XCTAssertThrowsError(try encoder.finish()) { XCTAssertEqual($0 as? EncodeError, .noFrames) }
        XCTAssertThrowsError(try encoder.add(Self.flat([1, 2, 3, 255], width: 9, height: 8), durationMilliseconds: 10)) {
            XCTAssertEqual($0 as? EncodeError, .frameSizeMismatch(width: 9, height: 8, canvasWidth: 8, canvasHeight: 8))
        }
        try encoder.add(Self.flat([1, 2, 3, 255], width: 8, height: 8), durationMilliseconds: 10)
        _ = try encoder.finish()
        XCTAssertThrowsError(try encoder.add(Self.flat([1, 2, 3, 255], width: 8, height: 8), durationMilliseconds: 10)) {
            XCTAssertEqual($0 as? EncodeError, .alreadyFinished)
        }
        XCTAssertThrowsError(try encoder.finish()) { XCTAssertEqual($0 as? EncodeError, .alreadyFinished) }
        XCTAssertThrowsError(try AnimatedWebPEncoder(width: 20000, height: 10, loopCount: 0, quality: 80)) {
            XCTAssertEqual($0 as? EncodeError, .tooLarge(.webp, width: 20000, height: 10, limit: 16383))
        }
    }

    // MARK: Helpers

    private static func flat(_ colour: [UInt8], width: Int, height: Int) -> RGBAImage {
        RGBAImage(width: width, height: height, pixels: Array((0..<(width * height)).map { _ in colour }.joined()))
    }

    /// The duration column of `webpmux -info`'s frame table.
    private static func webpmuxDurations(_ info: String) -> [Int] {
        let lines = info.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        guard let header = lines.first(where: { $0.first == "No.:" }), let column = header.firstIndex(of: "duration") else { return [] }
        return lines.filter { $0.first?.hasSuffix(":") == true && Int($0[0].dropLast()) != nil }.compactMap { Int($0[column]) }
    }
}

extension EncodedFile {
    /// The centre pixel of the first frame, as the registry decodes it.
    static func decodeFirstFrameCentre(_ data: Data) -> [Int] {
        guard let image = try? decode(data) else { return [] }
        return image.channels(x: image.width / 2, y: image.height / 2)
    }
}

/// Asserts two equally long integer lists differ by at most `accuracy` element by element.
func XCTAssertEqual(_ actual: [Int], _ expected: [Int], accuracy: Int, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    let close = actual.count == expected.count && zip(actual, expected).allSatisfy { abs($0 - $1) <= accuracy }
    XCTAssertTrue(close, "\(actual) is not \(expected) ± \(accuracy). \(message)", file: file, line: line)
}
