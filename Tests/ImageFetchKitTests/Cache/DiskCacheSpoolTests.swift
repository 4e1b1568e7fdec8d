import Foundation
import XCTest
@testable import ImageFetchKit

/// A download's body written to the cache's temporary file (`DiskCache.bodySpool`) is published
/// as it is: renamed into place, not written a second time.
final class DiskCacheSpoolTests: XCTestCase {
    private var directory = ""
    private let clock = TestClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    private func openCache() throws -> DiskCache {
        try DiskCache(directory: directory, configuration: .testing(clock: clock))
    }

    /// `data` written through `key`'s spool, as a transfer writes a body.
    private func spooledFile(_ data: Data, of cache: DiskCache, for key: CacheKey) throws -> SpooledBody {
        let spool = cache.bodySpool(for: key)
        let file = try XCTUnwrap(spool.create())
        let written = data.withUnsafeBytes { write(file.descriptor, $0.baseAddress!, $0.count) }
        close(file.descriptor)
        XCTAssertEqual(written, data.count)
        return SpooledBody(path: file.path, byteCount: data.count, discard: spool.discard)
    }

    private func inode(_ path: String) -> UInt64? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    func testTheSpooledFileBecomesTheEntryFile() async throws {
        let cache = try openCache()
        let data = Payload.make(seed: 1, size: 40_000)
        let file = try spooledFile(data, of: cache, for: key("a.png"))
        let spooledInode = try XCTUnwrap(inode(file.path))
        XCTAssertTrue(file.path.hasSuffix(DiskCache.temporaryFileSuffix))

        let entry = try await cache.store(data, info: pngInfo, for: key("a.png"), url: "u", spooled: file)

        XCTAssertEqual(inode(entry.path), spooledInode, "renamed into place, not copied")
        XCTAssertNil(inode(file.path))
        XCTAssertEqual(try cache.contents(of: entry), data)
        XCTAssertEqual(temporaryFiles(in: directory), [])
        XCTAssertNil(file.take(), "the store took it")
    }

    func testAnotherKeysFileIsNotTakenAndGoesWithItsBody() async throws {
        let cache = try openCache()
        let data = Payload.make(seed: 2, size: 30_000)
        // Keys whose shard folders differ: a rename between folders is not what a store does.
        let other = try XCTUnwrap((0..<64).map { key("other-\($0)") }.first { $0.shard != key("b.png").shard })
        var file: SpooledBody? = try spooledFile(data, of: cache, for: other)
        let path = try XCTUnwrap(file?.path)

        let entry = try await cache.store(data, info: pngInfo, for: key("b.png"), url: "u", spooled: file)

        XCTAssertNotEqual(inode(entry.path), inode(path))
        XCTAssertEqual(try cache.contents(of: entry), data)
        file = nil
        XCTAssertNil(inode(path), "no one took it: removed with its body")
        XCTAssertEqual(temporaryFiles(in: directory), [])
    }

    func testAFileOfAnotherLengthIsNotTaken() async throws {
        let cache = try openCache()
        let data = Payload.make(seed: 3, size: 20_000)
        var file: SpooledBody? = try spooledFile(data.prefix(10_000), of: cache, for: key("c.png"))

        let entry = try await cache.store(data, info: pngInfo, for: key("c.png"), url: "u", spooled: file)

        XCTAssertEqual(try cache.contents(of: entry), data)
        file = nil
        XCTAssertEqual(temporaryFiles(in: directory), [])
    }
}
