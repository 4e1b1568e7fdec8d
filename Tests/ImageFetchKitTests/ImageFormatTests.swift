import XCTest
@testable import ImageFetchKit

final class ImageFormatTests: XCTestCase {
    func testEveryFormatHasAnExtensionOfItsOwn() {
        let extensions = ImageFormat.allCases.map(\.fileExtension)
        XCTAssertEqual(Set(extensions).count, extensions.count)
        XCTAssertEqual(ImageFormat.jpeg.fileExtension, "jpg")
    }

    func testOnlyTheFourWebFormatsAreDecodable() {
        XCTAssertEqual(ImageFormat.decodable, [.jpeg, .png, .gif, .webp])
    }
}
