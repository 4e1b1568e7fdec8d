import Glibc

/// The process's environment variables, read one at a time.
///
/// Why not `ProcessInfo.processInfo.environment`: it copies every variable into a dictionary,
/// and building that and its generic types was a tenth of a `get` cache hit's run time.
public enum ProcessEnvironment {
    /// The value of `name`, or nil when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
