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
        guard configuration.cookieFile != nil, case .success(let engine) = CurlEngine.shared else { return [] }
        let id = client.id
        return await withCheckedContinuation { continuation in
            engine.send(.cookies(clientID: id, reply: { continuation.resume(returning: $0) }))
        }
    }

    /// Writes `cookies()` to the cookie file, replacing it whole (a temporary file renamed into
    /// place), readable by its owner only (0600): a cookie is a credential.
    public func saveCookies() async throws(CookieFileError) {
        guard let path = configuration.cookieFile else { return }
        let lines = await cookies()
        let text = "# Netscape HTTP Cookie File\n# Written by imgfetch; curl -b and wget --load-cookies read it.\n\n"
            + lines.map { $0 + "\n" }.joined()
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CookieFileError(path: path, cause: errnoDescription()) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else {
                let cause = errnoDescription()
                close(descriptor)
                unlink(temporary)
                throw CookieFileError(path: path, cause: cause)
            }
            offset += written
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let cause = errnoDescription()
            unlink(temporary)
            throw CookieFileError(path: path, cause: cause)
        }
    }
}
