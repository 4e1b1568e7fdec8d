import Foundation
import ImageFetchKit
import XCTest

/// `cache ls` writes each line as the index yields its entry, so `cache ls | head` on a large
/// cache prints at once and ends at the closed pipe, in every order and in JSON.
final class CacheListStreamingTests: EndToEndTestCase {
    static let entryCount = 20_000

    /// Fills the cache with `entryCount` entries of one small PNG through ImageFetchKit (fetching
    /// them would take minutes), stored many at once so the index commits them in batches.
    private func fillLargeCache() async throws {
        let cache = try DiskCache(directory: cacheDirectory.path)
        let image = try fixture("gray.png")
        let info = CachedImageInfo(format: .png, width: 32, height: 24)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<Self.entryCount {
                if index >= 64 { try await group.next() }
                group.addTask {
                    let url = "http://images.test/\(index).png"
                    try await cache.store(image, info: info, for: CacheKey(url), url: url)
                }
            }
            try await group.waitForAll()
        }
    }

    /// Wall seconds of a bash pipeline, and what it printed.
    private func timed(_ script: String) throws -> (seconds: Double, result: Imgfetch.Result) {
        let start = ContinuousClock.now
        let result = try Shell.run(script, environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])
        let elapsed = ContinuousClock.now - start
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, result)
    }

    func testTheFirstLineOfALargeListingComesLongBeforeTheWholeListingAndTheClosedPipeExits141() async throws {
        try await fillLargeCache()
        let binary = Imgfetch.binary.path
        for options in ["", "--sort size", "--sort url --json", "--sort fetched"] {
            let whole = try timed("\(binary) cache ls \(options) | wc -l")
            XCTAssertEqual(whole.result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(Self.entryCount)", options)

            let first = try timed("\(binary) cache ls \(options) | head -n 1; echo \"status ${PIPESTATUS[0]}\"")

            let printed = lines(first.result.stdout)
            XCTAssertEqual(printed.count, 2, "\(options): \(first.result.stdout)")
            XCTAssertTrue(printed.first?.contains("http://images.test/") ?? false, "\(options): \(first.result.stdout)")
            XCTAssertEqual(printed.last, "status 141", "\(options): the run stopped at the closed pipe")
            XCTAssertEqual(first.result.stderr, "", options)
            // Streamed, the head's run stops after its first block of output; collected, it would
            // read, order and format all 20k entries first, as the whole listing does.
            XCTAssertLessThan(first.seconds, whole.seconds / 3, "\(options): head \(first.seconds) s, whole \(whole.seconds) s")
        }
    }
}
