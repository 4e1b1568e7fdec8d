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
}
