/// How a loader uses a remote cache tier: where it is, whether it may write, how long to wait.
public struct RemoteCacheConfiguration: Sendable {
    public var location: RemoteCacheLocation
    public var mode: Mode
    /// The longest wait to connect, or for the next byte, on the tier (default 3 s): the tier
    /// sits next to its workers, and a tier that cannot answer fast is no faster than the origin.
    /// (2 s put a healthy nginx down under a machine loaded 4 times over its cores.)
    public var timeout: Duration
    /// The longest one object's transfer may take (default 10 s).
    public var totalTimeout: Duration
    /// Called with each warning, at most once per run for each case (the first failure that puts
    /// the tier down, the first damaged object): from any task, never under a lock.
    public var warn: @Sendable (RemoteCacheError) -> Void

    public enum Mode: String, Sendable, CaseIterable {
        /// Read hits and upload what the origin gave.
        case readWrite = "read-write"
        /// Read hits, never write: for workers that must not be trusted to write.
        case read
    }

    public init(
        location: RemoteCacheLocation, mode: Mode = .readWrite, timeout: Duration = .seconds(3),
        totalTimeout: Duration = .seconds(10), warn: @escaping @Sendable (RemoteCacheError) -> Void = { _ in }
    ) {
        self.location = location
        self.mode = mode
        self.timeout = timeout
        self.totalTimeout = totalTimeout
        self.warn = warn
    }
}
