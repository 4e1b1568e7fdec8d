import Foundation
import ImageFetchKit
import XCTest

/// A cache directory another user could write in is refused; inside the cache nothing is followed.
/// The refusals are tried as an unprivileged user (`nobody`), the way an attacker on a shared
/// machine and a user meet.
final class UnsafeCacheDirectoryTests: EndToEndTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        // `nobody` must reach the test's directory (and the binary) to run anything in it.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
    }

    /// Runs imgfetch as `nobody`, or skips the test where that is not possible (not root).
    private func imgfetchAsNobody(_ arguments: [String]) throws -> Imgfetch.Result {
        try XCTSkipUnless(geteuid() == 0, "running as another user needs root")
        let command = ["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups", Imgfetch.binary.path] + arguments
        return try Shell.run(command.map(Shell.quote).joined(separator: " "), environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path, "HOME": "/nonexistent"])
    }

    private func mode(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func owner(_ path: String, to user: String) throws {
        let result = try Shell.run("chown -R \(user) \(Shell.quote(path))")
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testAGroupWritableCacheDirectoryOfTheUsersOwnIsFixedTo0700() throws {
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: cacheDirectory.path)

        let result = try imgfetch(["get", url("/gray.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try mode(cacheDirectory.path), 0o700)
    }

    func testACacheDirectoryOfAnotherUserIsRefusedEvenForAHit() throws {
        // root fills a cache; nobody may not use it, not even to read a stamped hit from it.
        try imgfetch(["get", url("/gray.png")])

        let hit = try imgfetchAsNobody(["get", url("/gray.png")])
        let miss = try imgfetchAsNobody(["get", url("/alpha.png")])

        XCTAssertEqual(hit.status, 8, hit.stderr)
        XCTAssertEqual(hit.stdout, "")
        XCTAssertTrue(hit.stderr.contains("The cache directory \(cacheDirectory.path) is not safe to use: it belongs to another user (uid 0, you are 65534); use a directory of your own"), hit.stderr)
        XCTAssertEqual(miss.status, 8, miss.stderr)
        XCTAssertEqual(try requests("/alpha.png"), 0, "nothing is fetched for a cache that cannot be used")
    }

    func testASymlinkToAnotherUsersDirectoryIsRefusedAndNothingIsWrittenThere() throws {
        let victim = directory.path("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        let link = directory.path("nobody-home/cache")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try owner(link.deletingLastPathComponent().path, to: "nobody")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)

        let result = try imgfetchAsNobody(["get", "--cache-dir", link.path, url("/gray.png")])

        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertTrue(result.stderr.contains("belongs to another user"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: victim.path), [])
    }

    func testAWorldWritableDirectoryOfAnotherUserIsRefused() throws {
        let shared = directory.path("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: shared.path)

        let result = try imgfetchAsNobody(["get", "--cache-dir", shared.path, url("/gray.png")])

        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertTrue(result.stderr.contains("is not safe to use"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared.path), [])
    }

    func testALinkToADirectoryOfTheUsersOwnIsFollowed() throws {
        // Users move caches to another disk with a link: that is allowed.
        let real = directory.path("other-disk/cache")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let link = directory.path("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)

        let first = try imgfetch(["get", "--cache-dir", link.path, url("/gray.png")])
        let second = try imgfetch(["get", "--cache-dir", link.path, url("/gray.png")])

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try requests("/gray.png"), 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: real.appendingPathComponent("index.sqlite").path))
    }

    func testAnUnwritableCacheDirectoryIsExitEightButCacheOnlyHitsStillWork() throws {
        let home = directory.path("nobody-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try owner(home.path, to: "nobody")
        let cache = home.appendingPathComponent("cache").path
        XCTAssertEqual(try imgfetchAsNobody(["get", "--cache-dir", cache, url("/gray.png")]).status, 0)
        let readOnly = try Shell.run("chmod -R a-w \(Shell.quote(cache))")
        XCTAssertEqual(readOnly.status, 0, readOnly.stderr)

        let hit = try imgfetchAsNobody(["get", "--cache-only", "--cache-dir", cache, url("/gray.png")])
        let miss = try imgfetchAsNobody(["get", "--cache-dir", cache, url("/alpha.png")])

        XCTAssertEqual(hit.status, 0, hit.stderr)
        XCTAssertTrue(hit.stdout.hasPrefix(cache + "/"), hit.stdout)
        XCTAssertEqual(miss.status, 8, miss.stderr)
        XCTAssertTrue(miss.stderr.contains("The cache directory \(cache) is not writable: Permission denied"), miss.stderr)
    }

    // MARK: Inside the cache

    private func shardFolder(of address: String) throws -> URL {
        cacheDirectory.appendingPathComponent(CacheKey(url: try XCTUnwrap(URL(string: address))).shard)
    }

    func testAShardFolderReplacedByASymlinkIsReplacedNotWrittenThrough() throws {
        XCTAssertEqual(try imgfetch(["cache", "info"]).status, 0, "makes the cache")
        let outside = directory.path("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let shard = try shardFolder(of: url("/gray.png"))
        try? FileManager.default.removeItem(at: shard)
        try FileManager.default.createSymbolicLink(at: shard, withDestinationURL: outside)

        let result = try imgfetch(["get", url("/gray.png")])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), [])
        let type = try FileManager.default.attributesOfItem(atPath: shard.path)[.type] as? FileAttributeType
        XCTAssertEqual(type, .typeDirectory)
        XCTAssertEqual(try imgfetch(["cache", "verify"]).status, 0)
    }

    func testAnEntryFileReplacedByASymlinkIsNeverServed() throws {
        let first = try imgfetch(["get", url("/gray.png")])
        let path = first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let secret = try directory.write(Data("not yours".utf8), to: "secret.txt")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret.path)

        let second = try imgfetch(["get", "-o", "-", url("/gray.png")])

        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdoutData, try fixture("gray.png"), "fetched again, not read through the link")
        XCTAssertEqual(try Data(contentsOf: secret), Data("not yours".utf8))
        XCTAssertEqual(try requests("/gray.png"), 2)
    }

    func testALockFileOrIndexReplacedByASymlinkIsRefused() throws {
        try imgfetch(["get", url("/alpha.png")])
        let target = try directory.write(Data("keep".utf8), to: "target")
        for name in ["keys.lock", "index.sqlite"] {
            let path = cacheDirectory.appendingPathComponent(name)
            let saved = directory.path("saved-" + name)
            try FileManager.default.moveItem(at: path, to: saved)
            try FileManager.default.createSymbolicLink(at: path, withDestinationURL: target)

            let result = try imgfetch(["get", url("/gray.png", ["n": name])])

            XCTAssertEqual(result.status, 8, "\(name): \(result.stderr)")
            XCTAssertEqual(try Data(contentsOf: target), Data("keep".utf8), name)
            try FileManager.default.removeItem(at: path)
            try FileManager.default.moveItem(at: saved, to: path)
        }
        XCTAssertEqual(try requests("/gray.png"), 0)
    }
}
