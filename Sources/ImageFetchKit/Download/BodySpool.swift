import FoundationEssentials
import Synchronization

/// Where a transfer writes a 2xx body as it arrives, instead of holding it in memory: a file the
/// requester makes (the disk cache makes its temporary file in the entry's folder, so the body
/// received is the file it stores, renamed into place).
///
/// Why: held in memory, each chunk was copied from libcurl's buffer into the body, then written
/// to the store's temporary file. That copy was 10.5 % of the user CPU of a 1000-image prefetch
/// (perf record, `Data.append` under the write callback), and growing the body's buffer faulted in
/// a fresh page every 4 KiB. Written to the file, a chunk is copied once, into the page cache, which
/// the store needed anyway; the body is then read through a mapping of the same pages.
///
/// Only a body received whole from its first byte is written to a file: the continuation of a body
/// the requester already holds part of (`DownloadRequest.resume`) stays in memory, to be joined.
public struct BodySpool: Hashable, Sendable {
    /// Tells spools apart (requests for different files are not one transfer).
    public var id: String
    /// Makes a new empty file, open for writing; nil when it cannot (the body then stays in memory).
    public var create: @Sendable () -> File?
    /// Removes a file `create` made that no one took.
    public var discard: @Sendable (_ path: String) -> Void

    public struct File: Sendable {
        public var path: String
        public var descriptor: Int32

        public init(path: String, descriptor: Int32) {
            self.path = path
            self.descriptor = descriptor
        }
    }

    public init(id: String, create: @escaping @Sendable () -> File?, discard: @escaping @Sendable (String) -> Void) {
        self.id = id
        self.create = create
        self.discard = discard
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// The file a response's body was written to (`BodySpool`): closed, complete, the same bytes as
/// `DownloadResponse.body`. Whoever takes it owns it (a store renames it into place); a file no one
/// takes is removed when the last response holding it goes.
public final class SpooledBody: Sendable {
    public let path: String
    public let byteCount: Int
    private let discard: @Sendable (String) -> Void
    private let taken = Atomic<Bool>(false)

    init(path: String, byteCount: Int, discard: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.byteCount = byteCount
        self.discard = discard
    }

    /// The file's path, to the first caller only (requesters that shared the transfer share this).
    public func take() -> String? {
        taken.exchange(true, ordering: .acquiringAndReleasing) ? nil : path
    }

    deinit {
        if !taken.load(ordering: .acquiring) { discard(path) }
    }
}
