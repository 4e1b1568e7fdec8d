import FoundationEssentials
import Glibc

/// The cookie file of a downloader with `DownloaderConfiguration.cookieFile`: read by libcurl's
/// cookie engine before the first transfer, written back here, whole, at the end of a run.
extension Downloader {
    /// Why the cookie file could not be written.
    public struct CookieFileError: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let cause: String
        public var description: String { "Cannot write the cookie file \(path): \(cause)." }
    }

    /// The cookies this downloader's transfers hold now, as lines of a Netscape cookie file
    /// (curl's format); empty without a cookie file or before any transfer.
    public func cookies() async -> [String] {
        guard configuration.cookieFile != nil else { return [] }
        let id = client.id
        return await withCheckedContinuation { continuation in
            EngineStart.send(.cookies(clientID: id, reply: { continuation.resume(returning: $0) }))
        }
    }

    /// Writes `cookies()` to the cookie file, replacing it whole (`WholeFile.write(_:to:)`: a
    /// temporary file renamed into place, or in place when it names a device such as /dev/null),
    /// readable by its owner only (0600): a cookie is a credential.
    public func saveCookies() async throws(CookieFileError) {
        guard let path = configuration.cookieFile else { return }
        let lines = await cookies()
        let text = "# Netscape HTTP Cookie File\n# Written by imgfetch; curl -b and wget --load-cookies read it.\n\n"
            + lines.map { $0 + "\n" }.joined()
        do throws(OutputError) {
            try WholeFile.write(Data(text.utf8), to: path, permissions: 0o600)
        } catch {
            guard case .cannotWrite(_, let reason) = error else { throw CookieFileError(path: path, cause: error.description) }
            throw CookieFileError(path: path, cause: reason)
        }
    }
}
