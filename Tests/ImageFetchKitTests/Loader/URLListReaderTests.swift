import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImageFetchKit

final class URLListReaderTests: XCTestCase {
    private func reader(for text: String) throws -> (URLListReader, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "imgfetch-list")
        let file = try directory.write(Data(text.utf8), to: "list.txt")
        return (try URLListReader(path: file.path), directory)
    }

    /// The URLs of `bytes` read as a list, and the lines it rejected.
    private func read(_ bytes: [UInt8]) throws -> (urls: [String], rejected: [URLListReader.RejectedLine]) {
        let directory = try TemporaryDirectory(prefix: "imgfetch-list")
        let file = try directory.write(Data(bytes), to: "list.txt")
        let rejected = Mutex<[URLListReader.RejectedLine]>([])
        let reader = try URLListReader(path: file.path) { line in rejected.withLock { $0.append(line) } }
        let urls = Array(reader)
        return (urls, rejected.withLock { $0 })
    }

    func testAByteOrderMarkIsSkippedAndCRLFLineEndsAreRead() throws {
        let (urls, rejected) = try read([0xEF, 0xBB, 0xBF] + Array("http://a/1.png\r\nhttp://a/2.png\r\n".utf8))

        XCTAssertEqual(urls, ["http://a/1.png", "http://a/2.png"])
        XCTAssertEqual(rejected, [])
    }

    func testInvalidUTF8AndNULLinesAreRejectedWithTheirLineNumbers() throws {
        let bytes = Array("# list\nhttp://a/1.png\nhttp://a/".utf8) + [0xFF, 0xFE] + Array(".png\nhttp://a/b".utf8) + [0]
            + Array("c.png\nnot a url\nhttp://a/2.png".utf8)

        let (urls, rejected) = try read(bytes)

        XCTAssertEqual(urls, ["http://a/1.png", "http://a/2.png"])
        XCTAssertEqual(rejected.map(\.number), [3, 4, 5])
        XCTAssertEqual(rejected.map(\.problem), [.invalidUTF8, .controlCharacter, .notHTTP])
        XCTAssertEqual(rejected[0].excerpt, "http://a/\u{FFFD}\u{FFFD}.png")
        XCTAssertEqual(rejected[1].excerpt, "http://a/b\u{FFFD}c.png", "the NUL is not printed")
    }

    func testAOneMebibyteLineIsRejectedWithAShortExcerptAndTheNextLineIsRead() throws {
        let long = Array("http://a/".utf8) + Array(repeating: UInt8(ascii: "x"), count: 1 << 20)
        let (urls, rejected) = try read(Array("http://a/1.png\n".utf8) + long + Array("\nhttp://a/2.png\n".utf8))

        XCTAssertEqual(urls, ["http://a/1.png", "http://a/2.png"])
        XCTAssertEqual(rejected.count, 1)
        XCTAssertEqual(rejected.first?.number, 2)
        XCTAssertEqual(rejected.first?.problem, .tooLong(bytes: long.count))
        XCTAssertEqual(rejected.first?.excerpt.hasSuffix("…"), true)
        XCTAssertLessThanOrEqual(rejected.first?.excerpt.utf8.count ?? .max, URLListReader.excerptBytes + 3)
    }

    func testALongLastLineWithoutANewlineIsRejected() throws {
        let long = Array("http://a/".utf8) + Array(repeating: UInt8(ascii: "y"), count: 200_000)

        let (urls, rejected) = try read(long)

        XCTAssertEqual(urls, [])
        XCTAssertEqual(rejected.map(\.problem), [.tooLong(bytes: long.count)])
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

    func testCountingEntriesSkipsBlankLinesCommentsAndTheByteOrderMark() throws {
        let directory = try TemporaryDirectory(prefix: "imgfetch-list")
        let text = [0xEF, 0xBB, 0xBF] + Array("# header\r\n\nhttp://a/1\r\n  # indented\n\t\nnot a url\nhttp://a/2".utf8)
        let file = try directory.write(Data(text), to: "list.txt")

        XCTAssertEqual(URLListReader.countEntries(path: file.path), 3)
        XCTAssertNil(URLListReader.countEntries(path: "-"), "standard input is streamed, never counted")
        XCTAssertNil(URLListReader.countEntries(path: "/nonexistent/list.txt"))
    }

    func testAMissingFileIsATypedErrorNamingIt() {
        XCTAssertThrowsError(try URLListReader(path: "/nonexistent/list.txt")) { error in
            XCTAssertEqual((error as? URLListReader.Error)?.description, "Cannot open the URL list /nonexistent/list.txt: No such file or directory.")
        }
    }
}
