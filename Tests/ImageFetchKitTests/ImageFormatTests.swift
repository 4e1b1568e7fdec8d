import XCTest
@testable import ImageFetchKit

final class ImageFormatTests: XCTestCase {
    func testEveryFormatHasAnExtensionOfItsOwn() {
        let extensions = ImageFormat.allCases.map(\.fileExtension)
        XCTAssertEqual(Set(extensions).count, extensions.count)
        XCTAssertEqual(ImageFormat.jpeg.fileExtension, "jpg")
        XCTAssertEqual(ImageFormat.tiff.fileExtension, "tif")
        XCTAssertEqual(ImageFormat.jxl.fileExtension, "jxl")
    }

    func testTheWebAndCameraFormatsAreDecodableAndTheRestOnlyNamed() {
        XCTAssertEqual(ImageFormat.decodable, [.jpeg, .png, .gif, .webp, .avif, .heic, .jxl, .tiff, .bmp, .ico])
        for format in [ImageFormat.svg, .qoi, .psd, .pdf] { XCTAssertFalse(ImageFormat.decodable.contains(format)) }
        XCTAssertEqual(ImageFormat.listed([.jpeg, .jxl], conjunction: "or"), "JPEG or JPEG XL")
    }

    func testEveryFormatIsFoundByItsNameAndTheNamesAreTheIndexs() {
        let names = ImageFormat.allCases.map(\.rawValue)
        XCTAssertEqual(names, ["jpeg", "png", "gif", "webp", "avif", "heic", "jxl", "tiff", "bmp", "ico", "svg", "qoi", "psd", "pdf"])
        for format in ImageFormat.allCases { XCTAssertEqual(ImageFormat(rawValue: format.rawValue), format) }
        XCTAssertNil(ImageFormat(rawValue: "jpg"), "the extension is not the name")
        XCTAssertEqual("\(ImageFormat.jxl)", "jxl", "interpolated as its name, as the enum it was")
    }

    func testEachFormatIsDeclaredWithItsOwnSpec() {
        for format in ImageFormat.allCases { XCTAssertEqual(format.spec.format, format, format.rawValue) }
        XCTAssertEqual(ImageFormatSpec.all.map(\.format), ImageFormat.allCases)
    }

    func testTheRegistryHasTheDecoderOfEveryDecodableFormat() {
        XCTAssertEqual(DecoderRegistry.standard.supportedFormats, Set(ImageFormat.decodable))
        for format in ImageFormat.decodable { XCTAssertEqual(DecoderRegistry.standard.decoder(for: format)?.format, format) }
    }

    func testEveryCodecLibraryLoadsWithEverySymbolOfItsList() throws {
        // Each load resolves every name of the library's symbol list (CImageCodecs), or fails naming the missing one.
        let withLibrary = ImageFormatSpec.all.filter { $0.library != nil }.map(\.format)
        XCTAssertEqual(withLibrary, [.jpeg, .png, .gif, .webp, .avif, .heic, .jxl, .tiff])
        for format in withLibrary { XCTAssertNoThrow(try CodecLibraries.load(for: format), format.rawValue) }
    }

    func testTheDefaultAcceptHeaderNamesTheNewerFormatsInTheirRankOrder() {
        let ranked = ImageFormatSpec.all.compactMap(\.accept).sorted { $0.rank < $1.rank }.map(\.mediaType)
        XCTAssertEqual(ranked, ["image/avif", "image/jxl", "image/heic", "image/webp"])
        XCTAssertEqual(CodecLibraries.acceptHeader, (ranked + ["image/*", "*/*;q=0.8"]).joined(separator: ","))
    }
}
