import XCTest
@testable import ImageFetchKit

final class FormatSniffingTests: XCTestCase {
    private let registry = DecoderRegistry.standard

    func testEachFixtureIsNamedByItsMagicBytes() throws {
        let expected: [String: ImageFormat] = [
            "baseline.jpg": .jpeg, "progressive.jpg": .jpeg, "cmyk.jpg": .jpeg, "gray.jpg": .jpeg,
            "palette.png": .png, "rgb16.png": .png, "bomb.png": .png,
            "static.gif": .gif, "animated.gif": .gif,
            "lossy.webp": .webp, "lossless.webp": .webp, "animated.webp": .webp,
            "bmp24.bmp": .bmp, "os2.bmp": .bmp, "quads.tif": .tiff, "icons.ico": .ico, "cursor.cur": .ico,
            "unsupported.svg": .svg, "still.heic": .heic, "still.avif": .avif, "unsupported.qoi": .qoi,
            "sequence.avif": .avif, "lossy.jxl": .jxl, "container.jxl": .jxl,
        ]
        for (name, format) in expected {
            XCTAssertEqual(registry.format(of: try Fixture.data(name)), format, name)
        }
    }

    func testAnHTMLErrorPageIsNoImageFormat() throws {
        XCTAssertNil(registry.format(of: try Fixture.data("not-an-image.html")))
        XCTAssertNil(registry.format(of: Data("<html><body><svg></svg></body></html>".utf8)))
    }

    func testEmptyAndTinyDataAreNoImageFormat() {
        XCTAssertNil(registry.format(of: Data()))
        XCTAssertNil(registry.format(of: Data([0xFF])))
        XCTAssertNil(registry.format(of: Data("RIFF".utf8)))
    }

    func testSniffingIgnoresTheStartIndexOfASlice() throws {
        let png = try Fixture.data("palette.png")
        let slice = (Data([1, 2, 3]) + png).dropFirst(3)
        XCTAssertEqual(registry.format(of: slice), .png)
        XCTAssertEqual(try registry.probe(slice).width, 64)
    }

    func testNewerAndUnsupportedFormatsAreNamedByTheirMagicBytes() {
        let expected: [([UInt8], ImageFormat)] = [
            ([0xFF, 0x0A, 0xFA, 0x7F], .jxl),
            ([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], .jxl),
            (Array("8BPS".utf8) + [0, 1], .psd),
            (Array("%PDF-1.7\n".utf8), .pdf),
            ([0x00, 0x00, 0x02, 0x00, 0x01, 0x00], .ico),  // a CUR file
        ]
        for (bytes, format) in expected {
            XCTAssertEqual(registry.format(of: Data(bytes)), format, "\(bytes)")
        }
        XCTAssertNil(registry.format(of: Data([0x00, 0x00, 0x03, 0x00, 0x01, 0x00])), "ICO type 3 does not exist")
    }

    func testGenericHEIFBrandsAreToldApartByTheirCompatibleBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> Data {
            let brands = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
            return Data([0, 0, 0, UInt8(8 + brands.count)] + Array("ftyp".utf8) + brands)
        }
        XCTAssertEqual(registry.format(of: ftyp("mif1", ["mif1", "miaf", "avif"])), .avif)
        XCTAssertEqual(registry.format(of: ftyp("msf1", ["msf1", "avis"])), .avif)
        XCTAssertEqual(registry.format(of: ftyp("mif1", ["mif1", "heic"])), .heic)
        XCTAssertEqual(registry.format(of: ftyp("avis", ["msf1"])), .avif)
        XCTAssertNil(registry.format(of: ftyp("isom", ["avif"])), "an MP4 is not an image")
    }

    func testAnSVGWithoutXMLDeclarationIsRecognised() {
        XCTAssertEqual(registry.format(of: Data("  <svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)), .svg)
    }

    func testNoTwoFormatsClaimTheSameBytes() throws {
        // Sniffing takes the first format whose rule matches; the rules being disjoint makes the
        // order of ImageFormat.allCases irrelevant to what a file is.
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: Fixture.directory.path)
        XCTAssertGreaterThan(fixtures.count, 50)
        for name in fixtures {
            let bytes = ByteReader(try Fixture.data(name))
            let claims = ImageFormatSpec.all.filter { $0.recognises(bytes) }.map(\.format)
            XCTAssertLessThanOrEqual(claims.count, 1, "\(name): \(claims)")
        }
    }

    func testAnISOFileWhoseFileTypeBoxIs256BytesLongIsNotTakenForAnIcon() {
        // Its size field, 00 00 01 00, starts an ICO header too (reserved 0, type 1), which the ICO
        // rule took before the ISO rules were tried.
        var box = [0, 0, 1, 0] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1avifmiaf".utf8)
        box += [UInt8](repeating: 0, count: 256 - box.count)
        XCTAssertEqual(registry.format(of: Data(box)), .avif)
        XCTAssertEqual(ImageFormatSpec.all.filter { $0.recognises(ByteReader(Data(box))) }.map(\.format), [.avif])
    }
}
