import XCTest
@testable import ImageFetchKit

final class ImageFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("imgfetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    func testAFileIsIdentifiedByItsBytesNotItsName() throws {
        let path = directory.appendingPathComponent("photo.jpg").path
        try Fixture.data("palette.png").write(to: URL(fileURLWithPath: path))
        let file = try ImageFile(path: path)
        XCTAssertEqual(file.info.format, .png)
        XCTAssertEqual(file.byteCount, try Fixture.data("palette.png").count)
        XCTAssertEqual(file.path, path)
    }

    func testAMissingFileIsUnreadable() {
        let path = directory.appendingPathComponent("missing.png").path
        XCTAssertThrowsError(try ImageFile(path: path)) { error in
            XCTAssertEqual(error as? ImageFile.Error, .unreadable(path: path, reason: "there is no such file"))
            XCTAssertEqual("\(error)", "\(path): The file cannot be read: there is no such file.")
        }
    }

    func testADirectoryIsUnreadable() {
        XCTAssertThrowsError(try ImageFile(path: directory.path)) { error in
            XCTAssertEqual(error as? ImageFile.Error, .unreadable(path: directory.path, reason: "it is a directory"))
        }
    }

    func testABadImageNamesTheFileAndTheCause() throws {
        let path = Fixture.directory.appendingPathComponent("truncated-lossy.webp").path
        XCTAssertThrowsError(try ImageFile(path: path)) { error in
            XCTAssertEqual(error as? ImageFile.Error, .notAnImage(path: path, .truncated(.webp)))
            XCTAssertEqual("\(error)", "\(path): The WebP data ends before the image is complete; it is truncated.")
        }
    }

    func testDecodingPixelsCatchesDamageThatValidationCannotSee() throws {
        let path = Fixture.directory.appendingPathComponent("corrupt-data.png").path
        XCTAssertNoThrow(try ImageFile(path: path))
        XCTAssertThrowsError(try ImageFile(path: path, decodePixels: true))
    }
}
