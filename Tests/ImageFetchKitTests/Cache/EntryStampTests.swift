import Foundation
import Glibc
import XCTest
@testable import ImageFetchKit

/// The stamp each entry file carries (see `EntryStamp`): its encoding, and how the cache keeps it
/// in step with the index.
final class EntryStampTests: XCTestCase {
    private var directory = ""
    private let clock = TestClock()

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self) + "/cache"
    }

    private func openCache(maxSize: Int64? = nil) throws -> DiskCache {
        let cache = try DiskCache(directory: directory, configuration: .testing(clock: clock, maxSize: maxSize))
        try skipUnlessExtendedAttributesWork(in: cache.directory)
        return cache
    }

    private let sample = EntryStamp(
        format: .webp, width: 640, height: 480, bytes: 149_202, fetchedAt: 1_800_000_000.25,
        lastUsedAt: 1_800_000_060.5, expiresAt: 1_800_604_800.125)

    // MARK: Encoding

    func testEncodingRoundTripsEveryField() {
        let encoded = sample.encoded
        XCTAssertEqual(encoded.count, EntryStamp.encodedSize)
        XCTAssertEqual(encoded.withUnsafeBytes { EntryStamp(decoding: $0) }, sample)
    }

    func testEveryStoredFormatRoundTrips() {
        for format in EntryStamp.storedFormats {
            var stamp = sample
            stamp.format = format
            XCTAssertEqual(stamp.encoded.withUnsafeBytes { EntryStamp(decoding: $0) }?.format, format)
        }
    }

    func testTheFormatByteIsTheOneExistingCachesWereWrittenWith() {
        // The on-disk numbers before formats were declared in their folders: never to change.
        let written: [ImageFormat] = [.jpeg, .png, .gif, .webp, .bmp, .tiff, .heic, .avif, .ico, .svg, .jxl, .qoi, .psd, .pdf]
        for (code, format) in written.enumerated() {
            var stamp = sample
            stamp.format = format
            XCTAssertEqual(stamp.encoded[1], UInt8(code), format.rawValue)
            var bytes = sample.encoded
            bytes[1] = UInt8(code)
            XCTAssertEqual(bytes.withUnsafeBytes { EntryStamp(decoding: $0) }?.format, format, "byte \(code)")
        }
        XCTAssertEqual(Set(ImageFormat.allCases.map(\.stampCode)).count, ImageFormat.allCases.count, "one number a format")
    }

    func testOtherVersionsAndDamagedValuesAreNotStamps() {
        func decodes(_ change: (inout [UInt8]) -> Void) -> Bool {
            var bytes = sample.encoded
            change(&bytes)
            return bytes.withUnsafeBytes { EntryStamp(decoding: $0) } != nil
        }
        XCTAssertTrue(decodes { _ in })
        XCTAssertFalse(decodes { $0[0] = 2 }, "another layout version")
        XCTAssertFalse(decodes { $0[1] = 200 }, "an unknown format")
        XCTAssertFalse(decodes { $0.removeLast() }, "short")
        XCTAssertFalse(decodes { $0.append(0) }, "long")
        XCTAssertFalse(decodes { $0.replaceSubrange(2..<6, with: [0, 0, 0, 0]) }, "no width")
        XCTAssertFalse(decodes { $0.replaceSubrange(10..<18, with: [UInt8](repeating: 0, count: 8)) }, "no bytes")
    }

    // MARK: Kept in step with the index

    func testStoredFileCarriesItsEntrysStamp() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 500), info: pngInfo, for: key("a"), url: "u")
        XCTAssertEqual(EntryStamp.read(from: entry.path), EntryStamp(entry))
    }

    func testRemovalTakesTheStampOffTheFileBeforeUnlinkingIt() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 500), info: pngInfo, for: key("a"), url: "u")
        // A second name for the same inode outlives the unlink, and shows what a file a crash
        // left behind after the removal's commit would carry.
        let survivor = try hardLink(entry.path)

        XCTAssertTrue(try cache.remove(key("a")))

        XCTAssertFalse(FileManager.default.fileExists(atPath: entry.path))
        XCTAssertNil(EntryStamp.read(from: survivor))
    }

    func testEvictionTakesTheStampsOffItsVictims() throws {
        let cache = try openCache(maxSize: 1000)
        let first = try cache.store(Payload.make(seed: 1, size: 600), info: pngInfo, for: key("a"), url: "a")
        let survivor = try hardLink(first.path)
        clock.advance(by: 120)

        let second = try cache.store(Payload.make(seed: 2, size: 600), info: pngInfo, for: key("b"), url: "b")

        XCTAssertNil(try cache.entry(for: key("a")), "evicted")
        XCTAssertNil(EntryStamp.read(from: survivor))
        XCTAssertEqual(EntryStamp.read(from: second.path), EntryStamp(second))
    }

    func testReplacingAnEntryWithAnotherFormatTakesTheStampOffTheOldFile() throws {
        let cache = try openCache()
        let old = try cache.store(Payload.make(seed: 1, size: 300), info: pngInfo, for: key("a"), url: "u")
        let survivor = try hardLink(old.path)

        let new = try cache.store(Payload.make(seed: 2, size: 300), info: CachedImageInfo(format: .webp, width: 1, height: 1), for: key("a"), url: "u")

        XCTAssertNil(EntryStamp.read(from: survivor))
        XCTAssertEqual(EntryStamp.read(from: new.path), EntryStamp(new))
    }

    func testAPublishedFileIsUnstampedUntilItsStoreFinishes() throws {
        let cache = try openCache()
        let key = key("a")
        let path = cache.absolutePath(key.relativePath(fileExtension: "png"))
        let entry = CacheEntry(
            key: key, url: "u", path: path, format: .png, width: 3, height: 2, bytes: 300,
            validators: CacheValidators(), fetchedAt: clock.date(), lastUsedAt: clock.date(),
            expiresAt: clock.date().addingTimeInterval(3600))
        let temporaryFile = try cache.writeTemporaryFile(Payload.make(seed: 1, size: 300), for: key)

        // The publisher's transaction renames the file into place and commits its row; what a
        // crash at any point of it leaves has no stamp, so no hit serves an unindexed file.
        let outcomes = cache.publisher.commit([IndexPublisher.Publication(entry: entry, relativePath: key.relativePath(fileExtension: "png"), temporaryFile: temporaryFile)])
        guard case .published = outcomes.first else { return XCTFail("not published: \(outcomes)") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertNil(EntryStamp.read(from: path))

        // The index answers it, and stamps it.
        let hit = try XCTUnwrap(try cache.entry(for: key))
        XCTAssertEqual(EntryStamp.read(from: path), EntryStamp(hit))
    }

    func testRenewalStampsTheNewExpiry() throws {
        let cache = try openCache()
        try cache.store(Payload.make(seed: 1, size: 300), info: pngInfo, for: key("a"), url: "u")
        clock.advance(by: 8 * 24 * 3600)

        let renewed = try XCTUnwrap(try cache.renew(key("a")))

        let stamp = try XCTUnwrap(EntryStamp.read(from: renewed.path))
        XCTAssertEqual(stamp.fetchedAt, clock.date().timeIntervalSince1970)
        XCTAssertEqual(stamp.expiresAt, renewed.expiresAt.timeIntervalSince1970)
    }

    func testAHitTheIndexAnswersRestoresAMissingStamp() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 300), info: pngInfo, for: key("a"), url: "u")
        EntryStamp.remove(from: entry.path)

        let hit = try XCTUnwrap(try cache.entry(for: key("a")))

        XCTAssertEqual(EntryStamp.read(from: entry.path), EntryStamp(hit))
    }

    /// Two entries, "older" stored first, then a use of "older" recorded in its stamp alone, as a
    /// hit answered from the stamp records it. Over 1500 bytes, eviction frees down to 750: the
    /// 900-byte "newer" alone is enough.
    private func cacheWithAUseOnlyTheStampKnows() throws -> DiskCache {
        let cache = try openCache(maxSize: 1500)
        let older = try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("older"), url: "older")
        clock.advance(by: 120)
        try cache.store(Payload.make(seed: 2, size: 900), info: pngInfo, for: key("newer"), url: "newer")
        clock.advance(by: 120)
        try recordUseInStampAlone(of: "older", at: older.path)
        return cache
    }

    /// What a hit answered from a stamp does: the use in the stamp, then its bucket's mark.
    private func recordUseInStampAlone(of name: String, at path: String, offset: TimeInterval = 0) throws {
        var stamp = try XCTUnwrap(EntryStamp.read(from: path))
        stamp.lastUsedAt = clock.date().timeIntervalSince1970 + offset
        XCTAssertTrue(stamp.write(to: path))
        StampedUseMarks.mark(for: key(name), in: directory)
    }

    func testUsesRecordedInStampsDecideWhatEvictionKeeps() throws {
        let cache = try cacheWithAUseOnlyTheStampKnows()

        try cache.store(Payload.make(seed: 3, size: 600), info: pngInfo, for: key("third"), url: "third")

        XCTAssertNotNil(try cache.entry(for: key("older")), "used last, so kept")
        XCTAssertNil(try cache.entry(for: key("newer")), "least recently used, so evicted")
    }

    func testListingByUseSeesUsesRecordedInStamps() throws {
        let cache = try cacheWithAUseOnlyTheStampKnows()
        let listed = try cache.entries(sortedBy: .lastUsed)
        XCTAssertEqual(listed.map(\.url), ["older", "newer"])
        XCTAssertEqual(listed.first?.lastUsedAt, clock.date())
    }

    func testListingInAnyOtherOrderShowsTheUseTheStampRecorded() throws {
        let cache = try cacheWithAUseOnlyTheStampKnows()
        for order in [CacheEntry.SortOrder.url, .size, .fetched] {
            let older = try XCTUnwrap(cache.entries(sortedBy: order).first { $0.url == "older" })
            XCTAssertEqual(older.lastUsedAt, clock.date(), "\(order)")
        }
    }

    func testCatchingUpOnStampsWalksEachBucketInBatches() throws {
        let cache = try openCache()
        // Three names whose keys share a bucket, and two others.
        let crowd = (0..<2000).map { "shared-\($0)" }
        let bucket = StampedUseMarks.bucket(ofHash: key(crowd[0]).hash)
        let names = Array(crowd.filter { StampedUseMarks.bucket(ofHash: key($0).hash) == bucket }.prefix(3)) + ["x", "y"]
        XCTAssertEqual(names.count, 5)
        var paths: [String: String] = [:]
        for (offset, name) in names.enumerated() {
            paths[name] = try cache.store(Payload.make(seed: UInt64(offset), size: 100), info: pngInfo, for: key(name), url: name).path
            clock.advance(by: 10)
        }
        clock.advance(by: 120)
        // Uses only the stamps know, of every name in the shared bucket and one other.
        for (offset, name) in [names[2], names[0], "x", names[1]].enumerated() {
            try recordUseInStampAlone(of: name, at: XCTUnwrap(paths[name]), offset: Double(offset))
        }

        try cache.catchUpOnStampedUses(batch: 1)

        // Read back through the index alone (the stamps removed), so only what the catch-up wrote counts.
        for path in paths.values { EntryStamp.remove(from: path) }
        XCTAssertEqual(try cache.entries(sortedBy: .lastUsed).map(\.url), [names[1], "x", names[0], names[2], "y"])
    }

    func testOnlyMarkedBucketsAreReadAndTheirMarksAreTaken() throws {
        let cache = try cacheWithAUseOnlyTheStampKnows()
        XCTAssertEqual(try cache.entries(sortedBy: .lastUsed).map(\.url), ["older", "newer"])
        let marks = cache.directory + "/" + StampedUseMarks.folderName
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: marks), [], "the catch-up took the mark")
        let newer = try XCTUnwrap(cache.entries(sortedBy: .url).first { $0.url == "newer" })
        clock.advance(by: 120)
        var stamp = try XCTUnwrap(EntryStamp.read(from: newer.path))
        stamp.lastUsedAt = clock.date().timeIntervalSince1970
        XCTAssertTrue(stamp.write(to: newer.path))
        // A stamp written without its mark (as no hit writes one) is not read: its bucket is unmarked.
        try cache.catchUpOnStampedUses()
        EntryStamp.remove(from: newer.path)
        XCTAssertEqual(try cache.entries(sortedBy: .lastUsed).map(\.url), ["older", "newer"])

        XCTAssertTrue(stamp.write(to: newer.path))
        StampedUseMarks.mark(for: key("newer"), in: cache.directory)
        try cache.catchUpOnStampedUses()
        EntryStamp.remove(from: newer.path)
        XCTAssertEqual(try cache.entries(sortedBy: .lastUsed).map(\.url), ["newer", "older"])
    }

    func testACacheFromBeforeTheMarksHasEveryStampReadOnce() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "a")
        try cache.store(Payload.make(seed: 2, size: 100), info: pngInfo, for: key("b"), url: "b")
        // As an earlier build left it: no marks' folder, a use in a stamp alone.
        XCTAssertEqual(rmdir(cache.directory + "/" + StampedUseMarks.folderName), 0)
        clock.advance(by: 120)
        var stamp = try XCTUnwrap(EntryStamp.read(from: entry.path))
        stamp.lastUsedAt = clock.date().timeIntervalSince1970
        XCTAssertTrue(stamp.write(to: entry.path))

        try cache.catchUpOnStampedUses()

        XCTAssertTrue(StampedUseMarks.hasFolder(in: cache.directory))
        EntryStamp.remove(from: entry.path)
        XCTAssertEqual(try cache.entries(sortedBy: .lastUsed).map(\.url), ["a", "b"])
    }

    func testAMarksFolderReplacedByALinkGetsNoMarkAndIsReplacedWithEveryStampRead() throws {
        let cache = try openCache()
        let entry = try cache.store(Payload.make(seed: 1, size: 100), info: pngInfo, for: key("a"), url: "a")
        try cache.store(Payload.make(seed: 2, size: 100), info: pngInfo, for: key("b"), url: "b")
        let folder = cache.directory + "/" + StampedUseMarks.folderName
        let elsewhere = cache.directory + "/../elsewhere"
        XCTAssertEqual(mkdir(elsewhere, 0o700), 0)
        XCTAssertEqual(rmdir(folder), 0)
        XCTAssertEqual(symlink(elsewhere, folder), 0)
        clock.advance(by: 120)

        try recordUseInStampAlone(of: "a", at: entry.path)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [], "no mark through the link")
        try cache.catchUpOnStampedUses()

        XCTAssertTrue(StampedUseMarks.hasFolder(in: cache.directory), "a real folder again")
        EntryStamp.remove(from: entry.path)
        XCTAssertEqual(try cache.entries(sortedBy: .lastUsed).map(\.url), ["a", "b"], "every stamp was read")
    }

    func testAListingStopsWhenItsBodySaysSo() throws {
        let cache = try openCache()
        for name in ["a", "b", "c", "d"] {
            try cache.store(Payload.make(seed: 7, size: 100), info: pngInfo, for: key(name), url: name)
        }
        var seen: [String] = []
        try cache.forEachEntry(sortedBy: .url) { entry in
            seen.append(entry.url)
            return seen.count < 2
        }
        XCTAssertEqual(seen, ["a", "b"])
    }

    // MARK: Helpers

    private func hardLink(_ path: String) throws -> String {
        let other = directory + "/survivor-\(UUID().uuidString)"
        guard link(path, other) == 0 else { throw XCTSkip("cannot hard-link \(path): errno \(errno)") }
        return other
    }
}

/// Skips the test where the filesystem keeps no user extended attributes (tmpfs before Linux
/// 6.6): there the cache stamps nothing and every hit reads the index.
func skipUnlessExtendedAttributesWork(in directory: String) throws {
    let probe = directory + "/xattr-probe-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: probe, contents: Data())
    defer { unlink(probe) }
    let stamp = EntryStamp(format: .png, width: 1, height: 1, bytes: 1, fetchedAt: 0, lastUsedAt: 0, expiresAt: 0)
    guard stamp.write(to: probe) else { throw XCTSkip("\(directory) keeps no user extended attributes") }
}
