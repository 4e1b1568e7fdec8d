import Foundation
import TestSupport
import XCTest
@testable import ImageFetchKit

/// A served copy of the fixtures, the test server, a fresh cache directory and a clock the test steps.
class LoaderTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var server: TestServer!
    var clock: TestClock!
    var served: URL { directory.path("served") }
    var cacheDirectory: String { directory.path("cache").path }

    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "imgfetch-loader")
        try FileManager.default.copyItem(at: Self.fixtures, to: served)
        server = try TestServer.start(root: served)
        clock = TestClock()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        directory = nil
    }

    /// A loader on this test's cache directory and clock (a new one models a new process).
    func makeLoader(concurrency: Int = 6) -> ImageLoader {
        ImageLoader(configuration: LoaderConfiguration(
            cacheDirectory: cacheDirectory, diskCache: .testing(clock: clock), maxConcurrentTransfers: concurrency))
    }

    func url(_ path: String, _ query: [String: String] = [:]) -> String {
        server.url(path, query).absoluteString
    }

    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
    }

    func cache() throws -> DiskCache {
        try DiskCache(directory: cacheDirectory, configuration: .testing(clock: clock))
    }
}

extension LoadResult {
    /// The image, or a test failure naming the error.
    func requireImage(file: StaticString = #filePath, line: UInt = #line) throws -> LoadedImage {
        switch outcome {
        case .loaded(let image): return image
        case .failed(let error):
            XCTFail("expected an image, got: \(error)", file: file, line: line)
            throw error
        }
    }
}
