import Foundation
import Synchronization
import XCTest
@testable import ImageFetchKit

/// A fresh directory under the system temporary folder, removed when the test ends.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> String {
    let path = NSTemporaryDirectory() + "imgfetch-cache-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

/// A clock the test steps by hand, so expiry is tested without sleeping.
final class TestClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    func date() -> Date { now.withLock { $0 } }
    func advance(by seconds: TimeInterval) { now.withLock { $0 += seconds } }
}

extension DiskCacheConfiguration {
    /// A configuration on `clock`, with the given limits.
    static func testing(clock: TestClock, maxSize: Int64? = nil, maxAge: TimeInterval = 7 * 24 * 3600) -> DiskCacheConfiguration {
        DiskCacheConfiguration(maxAge: maxAge, maxSize: maxSize, currentDate: { clock.date() })
    }
}

/// Self-checking bytes; the same format as cache-hammer's `Payload` so tests can check its files.
enum Payload {
    static func make(seed: UInt64, size: Int) -> Data {
        var state = seed
        let bodyCount = max(0, size - 16)
        var body = [UInt8](repeating: 0, count: bodyCount)
        for index in body.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            body[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        var bytes: [UInt8] = Array("HAMR".utf8)
        bytes += withUnsafeBytes(of: UInt32(bodyCount + 16).littleEndian, Array.init)
        bytes += withUnsafeBytes(of: fnv1a(body).littleEndian, Array.init)
        return Data(bytes + body)
    }

    static func isWhole(_ data: Data) -> Bool {
        let bytes = Array(data)
        guard bytes.count >= 16, bytes[0..<4].elementsEqual("HAMR".utf8) else { return false }
        let length = bytes[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let hash = bytes[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(length) == bytes.count && hash == fnv1a(bytes[16...])
    }

    /// A validator for `DiskCache.verify`.
    struct Damaged: Error {}
    static func validate(_ data: Data) throws {
        guard isWhole(data) else { throw Damaged() }
    }

    static func fnv1a(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

let pngInfo = CachedImageInfo(format: .png, width: 3, height: 2)

func key(_ name: String) -> CacheKey { CacheKey("https://example.test/\(name)") }

/// Writes in progress (`*.tmp`) anywhere under `directory`, as relative paths.
func temporaryFiles(in directory: String) -> [String] {
    let names = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
    return names.filter { $0.hasSuffix(".tmp") }
}
