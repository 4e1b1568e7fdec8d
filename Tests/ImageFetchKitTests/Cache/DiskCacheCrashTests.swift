import Foundation
import XCTest
@testable import ImageFetchKit

/// Writers SIGKILLed at many points: the cache must never serve a missing or partial file.
final class DiskCacheCrashTests: XCTestCase {
    func testWritersKilledAtManyPointsLeaveNoDamagedEntry() throws {
        let directory = try makeTemporaryDirectory(self) + "/cache"
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            // Two writers at once, a 1.5 MB limit so eviction runs too; each is killed a little
            // after its n-th store, which lands in varying phases of a later store.
            let writers = try (0..<2).map { _ in try CacheHammer(["write-loop", directory, "1500000"]) }
            for writer in writers {
                writer.waitForLine { $0 == "stored \(1 + round % 7)" }
            }
            usleep(UInt32.random(in: 0...3000, using: &generator))  // spreads the kill, not a wait
            for writer in writers { writer.kill() }
            for writer in writers { writer.waitForExit() }
        }

        let cache = try DiskCache(directory: directory)
        let verification = try cache.verify(fix: false, validator: Payload.validate)
        XCTAssertGreaterThan(verification.checked, 0)
        XCTAssertEqual(verification.damaged.map(\.reason), [], "a killed writer left an entry with a bad file")
        for entry in try cache.entries() {
            let served = try XCTUnwrap(try cache.entry(for: entry.key))
            XCTAssertTrue(Payload.isWhole(try Data(contentsOf: URL(fileURLWithPath: served.path))))
        }
        // Files published just before a kill, without their row, are only orphans; a fix sweeps them.
        _ = try cache.verify(fix: true, validator: Payload.validate)
        XCTAssertEqual(try cache.verify(fix: false, validator: Payload.validate).unindexedFiles, 0)
    }
}
