import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

final class URLListReaderTests: XCTestCase {
    private func reader(for text: String) throws -> (URLListReader, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "imgfetch-list")
        let file = try directory.write(Data(text.utf8), to: "list.txt")
        return (try URLListReader(path: file.path), directory)
    }

    func testSkipsBlankLinesAndCommentsAndTrimsWhitespace() throws {
        let (reader, directory) = try reader(for: "# header\n\nhttp://a/1.png\n  http://a/2.png\t\r\n   # indented comment\nhttp://a/3.png")
        defer { _ = directory }

        XCTAssertEqual(Array(reader), ["http://a/1.png", "http://a/2.png", "http://a/3.png"])
        XCTAssertNil(reader.error)
    }

    func testReadsALargeListInChunksNotAllAtOnce() throws {
        let lines = (0..<100_000).map { "http://example.com/images/\($0).jpg" }
        let (reader, directory) = try reader(for: lines.joined(separator: "\n") + "\n")
        defer { _ = directory }

        var iterator = reader.makeIterator()
        XCTAssertEqual(iterator.next(), lines[0])
        let fraction = try XCTUnwrap(reader.fractionRead)
        XCTAssertLessThan(fraction, 0.05, "only the first chunk has been read")

        var count = 1
        while iterator.next() != nil { count += 1 }
        XCTAssertEqual(count, lines.count)
        XCTAssertEqual(reader.fractionRead, 1)
    }

    func testAMissingFileIsATypedErrorNamingIt() {
        XCTAssertThrowsError(try URLListReader(path: "/nonexistent/list.txt")) { error in
            XCTAssertEqual((error as? URLListReader.Error)?.description, "Cannot open the URL list /nonexistent/list.txt: No such file or directory.")
        }
    }
}
