import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// The loader's memory is bounded by its configured limit, whatever the number of URLs.
final class LoaderMemoryTests: LoaderTestCase {
    func testMemoryCacheStaysWithinItsLimitHoweverManyURLsLoad() async throws {
        let limit = 32 * 1024
        let loader = ImageLoader(configuration: LoaderConfiguration(
            cacheDirectory: cacheDirectory, diskCache: .testing(clock: clock), memoryCostLimit: limit,
            maxConcurrentTransfers: 8))
        let urls = (0..<200).map { url("/gray.png", ["n": "\($0)"]) }

        let summary = await ImagePrefetcher(loader: loader, concurrency: 8).prefetch(urls, options: LoadOptions()) { _ in }

        XCTAssertEqual(summary.fetched, 200)
        let memoryCache = try XCTUnwrap(loader.memoryCache)
        XCTAssertLessThanOrEqual(memoryCache.totalCost, limit)
        XCTAssertLessThanOrEqual(memoryCache.count, limit / LoadedImage.fixedMemoryCost)
        XCTAssertGreaterThan(memoryCache.count, 0, "recent loads are remembered")
        XCTAssertEqual(loader.inFlight.count, 0, "finished loads leave nothing in the in-flight map")
        let last = try await loader.load(urls[199]).requireImage()
        XCTAssertEqual(last.cacheType, .memory)
    }

    func testRememberedEntryCostCoversTheMemoryItKeepsAlive() throws {
        try skipUnderSanitizer()
        let count = 40000
        let cache = MemoryCache<CacheKey, LoadedImage>(costLimit: .max)
        let before = residentAnonymousBytes()
        var costs = 0
        for index in 0..<count {
            let key = CacheKey("http://127.0.0.1:8080/small/\(index).png")
            let path = "/home/user/.cache/imgfetch/\(key.shard)/\(key.hash).png"
            let image = LoadedImage(
                filePath: path, data: nil, format: .png, width: 1, height: 1, frames: 1,
                byteCount: 165, cacheType: .disk)
            let cost = image.memoryCost(for: key)
            costs += cost
            cache.insert(image, for: key, cost: cost)
        }
        let grown = residentAnonymousBytes() - before
        XCTAssertEqual(cache.count, count)
        // Heap freed by earlier tests is reused without growing the resident set; then this
        // process cannot see what the entries take.
        try XCTSkipIf(grown < count * 256, "the entries reused freed memory; nothing to measure")
        XCTAssertGreaterThanOrEqual(costs, grown, "the costs undercount the memory the entries hold")
    }

    /// RssAnon of this process, in bytes.
    private func residentAnonymousBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") } ?? ""
        return 1024 * (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0)
    }
}
