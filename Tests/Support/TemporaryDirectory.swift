import Foundation

/// A fresh directory under the system's temporary directory, removed when this value is released.
/// Every test makes its own, so no two tests ever share files or a cache.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(prefix: String = "imgfetch-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside this directory.
    public func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Writes `data` to `name` (creating intermediate directories) and returns its URL.
    @discardableResult
    public func write(_ data: Data, to name: String) throws -> URL {
        let file = path(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }
}
