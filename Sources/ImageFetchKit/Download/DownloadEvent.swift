import FoundationEssentials

/// What the engine did with a downloader's transfer; see `Downloader.init(configuration:observer:)`.
enum DownloadEvent: Sendable, Equatable {
    /// A new transfer waits for a free slot.
    case queued(URL)
    /// A request joined a transfer already queued or running; `requesters` now share it.
    case joined(URL, requesters: Int)
    /// A transfer (or a retry of it) started on the network.
    case started(URL)
    /// A transfer failed transiently and will be retried.
    case willRetry(URL)
    /// A transfer completed (successfully or not) and its requesters were answered.
    case finished(URL)
    /// Every requester of a transfer cancelled, so the transfer was stopped.
    case abandoned(URL)
}
