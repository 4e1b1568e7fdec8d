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
    /// How long a paused direction (reads or writes) or a tier too slow to read from is left
    /// alone before one request tests it again (default 5 s).
    public var coolDown: Duration
    /// Called with each warning, at most once per run for each case (the first pause, the first
    /// refused upload, the first damaged object): from any task, never under a lock.
    public var warn: @Sendable (RemoteCacheError) -> Void
    /// Called with each decision of the health rules (a pause, a test, a retry, reads skipped
    /// as slow), one line each, for `-v`: from any task, never under a lock.
    public var note: @Sendable (String) -> Void

    public enum Mode: String, Sendable, CaseIterable {
        /// Read hits and upload what the origin gave.
        case readWrite = "read-write"
        /// Read hits, never write: for workers that must not be trusted to write.
        case read
    }

    public init(
        location: RemoteCacheLocation, mode: Mode = .readWrite, timeout: Duration = .seconds(3),
        totalTimeout: Duration = .seconds(10), coolDown: Duration = .seconds(5),
        warn: @escaping @Sendable (RemoteCacheError) -> Void = { _ in }, note: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.location = location
        self.mode = mode
        self.timeout = timeout
        self.totalTimeout = totalTimeout
        self.coolDown = coolDown
        self.warn = warn
        self.note = note
    }
}
