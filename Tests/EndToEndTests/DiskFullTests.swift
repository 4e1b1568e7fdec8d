import Foundation
import XCTest

/// A cache on a full disk: a 2 MiB tmpfs mounted as the cache directory, two images of 1.1 MB.
final class DiskFullTests: EndToEndTestCase {
    private var mounted = false

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let mount = try Shell.run("mount -t tmpfs -o size=2m,mode=0700 imgfetch-test \(Shell.quote(cacheDirectory.path))")
        try XCTSkipUnless(mount.status == 0, "mounting a tmpfs is refused here: \(mount.stderr)")
        mounted = true
        // Random pixels do not compress: each PNG is about 1.1 MB, and only one fits.
        try serveNoisePNGs(["big1.png", "big2.png"], side: 620)
    }

    override func tearDown() {
        if mounted { _ = try? Shell.run("umount \(Shell.quote(cacheDirectory.path))") }
        super.tearDown()
    }

    private func temporaryFiles() -> [String] {
        (FileManager.default.enumerator(atPath: cacheDirectory.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".tmp") }
    }

    func testAFullDiskFailsTheStoreWithEightLeavesNothingPartialAndTheBatchGoesOn() throws {
        let list = try directory.write(Data([url("/big1.png"), url("/big2.png"), url("/gray.png")].joined(separator: "\n").utf8), to: "list.txt")

        let batch = try imgfetch(["prefetch", "-j", "1", list.path])

        XCTAssertEqual(batch.status, 1, "one failed, the others were stored: \(batch.stderr)")
        let errors = lines(batch.stderr).filter { $0.hasPrefix("imgfetch: ") && !$0.hasPrefix("imgfetch: prefetch: ") }
        XCTAssertEqual(errors.count, 1, batch.stderr)
        XCTAssertTrue(errors[0].contains(": the disk is full (No space left on device); free some space"), errors[0])
        XCTAssertTrue(batch.stderr.contains("prefetch: 2 fetched, 0 already cached, 1 failed"), batch.stderr)
        XCTAssertEqual(temporaryFiles(), [])
        let entries = try cachedEntries()
        XCTAssertEqual(entries.count, 2)
        for entry in entries { XCTAssertTrue(FileManager.default.fileExists(atPath: entry.path), "a row without its file: \(entry.path)") }
        let verify = try imgfetch(["cache", "verify"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        XCTAssertEqual(verify.stderr, "imgfetch: verify: 2 checked, 0 damaged, 0 unindexed files, 0 temporary files, 0 partial files\n")

        // The one that failed fails alone with the file-error status, and works once there is room.
        let failed = try XCTUnwrap([url("/big1.png"), url("/big2.png")].first { !entries.map(\.url).contains($0) })
        let stored = try XCTUnwrap([url("/big1.png"), url("/big2.png")].first { $0 != failed })
        let alone = try imgfetch(["get", failed])
        XCTAssertEqual(alone.status, 8, alone.stderr)
        XCTAssertTrue(alone.stderr.contains("the disk is full"), alone.stderr)
        XCTAssertEqual(try imgfetch(["cache", "purge", stored]).status, 0)
        let again = try imgfetch(["get", failed])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(temporaryFiles(), [])
        XCTAssertEqual(try imgfetch(["cache", "verify"]).status, 0)
    }
}
