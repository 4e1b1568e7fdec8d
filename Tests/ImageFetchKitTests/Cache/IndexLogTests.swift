import Foundation
import XCTest
@testable import ImageFetchKit

/// The index's write-ahead log is left for later when it is small (see
/// `SQLiteDatabase.uncheckpointedFrameLimit`; IndexPublisherTests checks that a large one is
/// checkpointed when the cache goes).
final class IndexLogTests: XCTestCase {
    private var directory = ""
    private let clock = TestClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    private var logPath: String { directory + "/index.sqlite-wal" }

    private func store(_ count: Int, from first: Int = 0) throws {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock))
        for index in first..<(first + count) {
            try cache.store(Payload.make(seed: UInt64(index), size: 200), info: pngInfo, for: key("\(index)"), url: "u\(index)")
        }
    }

    func testASmallLogOutlivesItsProcessesAndEveryEntryIsStillThere() throws {
        try store(1)
        try store(1, from: 1)
        let frames = SQLiteDatabase.frameCount(ofLogAt: logPath)
        XCTAssertGreaterThan(frames, 0, "two small stores leave their frames in the log")
        XCTAssertLessThanOrEqual(frames, SQLiteDatabase.uncheckpointedFrameLimit)
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock))
        XCTAssertNotNil(try cache.entry(for: key("0")))
        XCTAssertNotNil(try cache.entry(for: key("1")))
    }

    func testFrameCountReadsTheLogsSize() throws {
        let path = try makeTemporaryDirectory(self) + "/log"
        XCTAssertEqual(SQLiteDatabase.frameCount(ofLogAt: path), 0, "no log")
        _ = FileManager.default.createFile(atPath: path, contents: Data(count: 32 + 3 * (4096 + 24)))
        XCTAssertEqual(SQLiteDatabase.frameCount(ofLogAt: path), 3)
    }
}
