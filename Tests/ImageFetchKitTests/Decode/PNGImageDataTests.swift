import FoundationEssentials
import TestSupport
import XCTest
@testable import ImageFetchKit

/// imgfetch's own reader of 8-bit PNG image data (the transforms' PNG decode) against libpng.
final class PNGImageDataTests: XCTestCase {
    func testEveryFilterOnNoiseDecodesAsLibPNGDoesForEachChannelCount() throws {
        var random = SplitMix(seed: 14)
        for channels in 1...4 {
            // An odd width, so 3-byte pixels end off a 4-byte boundary; every filter type in turn.
            let samples = (0..<(37 * 23 * channels)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let png = RowFilteredPNG(width: 37, height: 23, channels: channels, samples: samples)
            let data = png.encoded(idatPieces: 3)
            let ours = try XCTUnwrap(try PNGImageData(PNGChunks(data)), "\(channels) channels")
            let pixels = try XCTUnwrap(ours.decodeRGBA(data, width: 37, height: 23), "\(channels) channels")
            XCTAssertEqual(pixels, png.rgba, "\(channels) channels")
            XCTAssertEqual(pixels, try LibPNG.decodeRGBA(data, width: 37, height: 23), "\(channels) channels")
        }
    }

    func testTheFixturesItReadsDecodeAsLibPNGDoesThem() throws {
        var read = 0
        for name in ["gray.png", "alpha.png", "icc.png", "adobe-rgb.png", "palette.png", "rgb16.png", "interlaced.png"] {
            let data = try Fixture.data(name)
            let png = try PNGChunks(data)
            guard let ours = try PNGImageData(png) else { continue }
            XCTAssertEqual(
                ours.decodeRGBA(data, width: png.width, height: png.height),
                try LibPNG.decodeRGBA(data, width: png.width, height: png.height), name)
            read += 1
        }
        XCTAssertEqual(read, 4, "gray and alpha (with sRGB's gAMA), icc and adobe-rgb are 8-bit and not interlaced")
    }

    func testPNGsLibPNGPresentsOtherwiseAreLeftToIt() throws {
        for name in ["palette.png", "rgb16.png", "interlaced.png", "animated.png"] {
            XCTAssertNil(try PNGImageData(PNGChunks(try Fixture.data(name))), name)
        }
        let gray = RowFilteredPNG(width: 4, height: 4, channels: 1, samples: [UInt8](repeating: 9, count: 16))
        for chunk in ["tRNS", "gAMA", "sBIT"] {
            let data = gray.encoded(idatPieces: 1, extraChunk: (chunk, [0, 0, 0, 1]))
            XCTAssertNil(try PNGImageData(PNGChunks(data)), chunk)
        }
        // sRGB's own gamma, 45455, is read here.
        XCTAssertNotNil(try PNGImageData(PNGChunks(gray.encoded(idatPieces: 1, extraChunk: ("gAMA", [0, 0, 0xB1, 0x8F])))))
    }

    func testDataItDoesNotTakeIsLeftToLibPNGWhichSaysWhatIsWrong() throws {
        let png = RowFilteredPNG(width: 16, height: 16, channels: 3, samples: (0..<768).map { UInt8($0 % 251) })
        let short = png.encoded(idatPieces: 4, droppingLastIDAT: true)
        var wrongCRC = png.encoded(idatPieces: 1)
        let idat = try XCTUnwrap(try PNGImageData(PNGChunks(wrongCRC))).chunkOffsets[0]
        wrongCRC[Int(idat) + 8 + 20] ^= 0x40
        let unknownFilter = png.encoded(idatPieces: 1, filterOfRow: { _ in 5 })
        for (label, data) in [("ends early", short), ("wrong CRC", wrongCRC), ("unknown filter", unknownFilter)] {
            let ours = try XCTUnwrap(try PNGImageData(PNGChunks(data)), label)
            XCTAssertNil(ours.decodeRGBA(data, width: 16, height: 16), label)
            let info = ImageInfo(format: .png, width: 16, height: 16, frameCount: 1, hasAlpha: false, bitDepth: 8, isProgressive: false)
            let viaDecoder = decodeError { () throws(DecodeError) in try PNGDecoder().decodeForTransform(data, info: info, minimumStoredSize: nil) }
            let viaLibPNG = decodeError { () throws(DecodeError) in try LibPNG.decodeRGBA(data, width: 16, height: 16) }
            XCTAssertNotNil(viaLibPNG, label)
            XCTAssertEqual(viaDecoder, viaLibPNG, label)
        }
    }
}

/// An 8-bit, non-interlaced PNG written here, each row with the filter `filterOfRow` picks (by
/// default the five in turn), its zlib stream in stored (uncompressed) blocks.
private struct RowFilteredPNG {
    let width: Int
    let height: Int
    let channels: Int
    let samples: [UInt8]

    /// The samples widened to RGBA8, as libpng presents them.
    var rgba: [UInt8] {
        stride(from: 0, to: samples.count, by: channels).flatMap { i -> [UInt8] in
            switch channels {
            case 1: [samples[i], samples[i], samples[i], 255]
            case 2: [samples[i], samples[i], samples[i], samples[i + 1]]
            case 3: [samples[i], samples[i + 1], samples[i + 2], 255]
            default: Array(samples[i..<(i + 4)])
            }
        }
    }

    func encoded(
        idatPieces: Int, droppingLastIDAT: Bool = false, extraChunk: (String, [UInt8])? = nil,
        filterOfRow: (Int) -> UInt8 = { UInt8($0 % 5) }
    ) -> Data {
        let colorType: UInt8 = [0, 4, 2, 6][channels - 1]
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, colorType, 0, 0, 0])
        if let (type, body) = extraChunk { out += chunk(type, body) }
        let stream = storedZlibStream(filteredRows(filterOfRow))
        let pieceSize = (stream.count + idatPieces - 1) / idatPieces
        let pieces = stride(from: 0, to: stream.count, by: pieceSize).map { Array(stream[$0..<min($0 + pieceSize, stream.count)]) }
        for piece in droppingLastIDAT ? pieces.dropLast() : pieces[...] { out += chunk("IDAT", piece) }
        out += chunk("IEND", [])
        return Data(out)
    }

    private func filteredRows(_ filterOfRow: (Int) -> UInt8) -> [UInt8] {
        let length = width * channels
        var out: [UInt8] = []
        for y in 0..<height {
            let filter = filterOfRow(y)
            out.append(filter)
            for i in 0..<length {
                let x = Int(samples[y * length + i])
                let a = i >= channels ? Int(samples[y * length + i - channels]) : 0
                let b = y > 0 ? Int(samples[(y - 1) * length + i]) : 0
                let c = y > 0 && i >= channels ? Int(samples[(y - 1) * length + i - channels]) : 0
                let predictor = switch filter {
                case 1: a
                case 2: b
                case 3: (a + b) / 2
                case 4: Self.paeth(a, b, c)
                default: 0
                }
                out.append(UInt8(truncatingIfNeeded: x - predictor))
            }
        }
        return out
    }

    private static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let (pa, pb, pc) = (abs(b - c), abs(a - c), abs(a + b - 2 * c))
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    private func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeAndBody = Array(type.utf8) + body
        return bigEndian(body.count) + typeAndBody + bigEndian(Int(CRC32.checksum(typeAndBody)))
    }

    private func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
