/// Fetches the bytes behind a URL. The loader talks to the network only through this seam;
/// `Downloader` is the one real implementation.
public protocol DataLoading: Sendable {
    /// Loads `request`. Equal requests in flight at the same time share one transfer.
    ///
    /// - Parameter progress: called for this requester as bytes arrive, on the downloader's own
    ///   thread; it must return quickly and must not block.
    /// - Returns: the response of a 2xx reply, or of a 304 (`isNotModified`) to a conditional request.
    /// - Throws: `DownloadError` for everything else, including cancellation of the calling task.
    ///   A partial body is never returned.
    func load(
        _ request: DownloadRequest,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws(DownloadError) -> DownloadResponse

    /// Cancels every load in flight and every later one (a process told to stop).
    func stop()
}

extension DataLoading {
    /// Loads `request` without progress reports.
    public func load(_ request: DownloadRequest) async throws(DownloadError) -> DownloadResponse {
        try await load(request, progress: nil)
    }
}
