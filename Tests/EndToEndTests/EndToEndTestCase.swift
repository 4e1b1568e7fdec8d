import Foundation
import ImageFetchKit
import TestSupport
import XCTest

/// A fresh temporary directory holding a served folder (the committed fixtures), a cache
/// directory and scratch space, and the project's test server serving the folder. Every test runs
/// the real `imgfetch` binary against them.
class EndToEndTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var server: TestServer!
    /// The folder the server serves: a copy of `Tests/Fixtures`.
    var served: URL { directory.path("served") }
    /// The cache directory every run uses (through `IMGFETCH_CACHE_DIR`).
    var cacheDirectory: URL { directory.path("cache") }

    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    var useTLS: Bool { false }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "imgfetch-e2e")
        try FileManager.default.copyItem(at: Self.fixtures, to: served)
        server = try TestServer.start(root: served, tls: useTLS)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        directory = nil
    }

    /// The URL of `path` on the test server, with fault knobs in `query`.
    func url(_ path: String, _ query: [String: String] = [:]) -> String {
        server.url(path, query).absoluteString
    }

    /// Runs imgfetch with this test's cache directory and nothing from the user's environment
    /// that could change where the cache is or how output looks.
    @discardableResult
    func imgfetch(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) throws -> Imgfetch.Result {
        var env = ["IMGFETCH_CACHE_DIR": cacheDirectory.path, "XDG_CACHE_HOME": directory.path("xdg").path, "NO_COLOR": ""]
        env.merge(environment) { _, new in new }
        return try Imgfetch.run(arguments, environment: env, stdin: stdin)
    }

    /// How many requests the server has seen for `path` (query strings ignored).
    func requests(_ path: String) throws -> Int {
        try server.requestCount(for: path)
    }

    /// The disk cache's entries now, read through ImageFetchKit (not through the binary under test).
    func cachedEntries() throws -> [CacheEntry] {
        try DiskCache(directory: cacheDirectory.path).entries(sortedBy: .url)
    }

    /// The fixture's bytes.
    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
    }

    /// Non-empty stdout lines.
    func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    /// Each stdout line parsed as a JSON object.
    func jsonObjects(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        try lines(text).map { text in
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(text)", file: file, line: line)
        }
    }
}
