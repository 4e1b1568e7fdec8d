import Glibc

/// Lexical path arithmetic on `String` paths, the few operations the cache needs. It exists so the
/// package can import FoundationEssentials alone: NSString's path methods live in the full
/// Foundation, whose ICU data and conformance records cost every start of the tool a millisecond
/// or more.
public enum FilePath {
    /// `base` and `component` joined by exactly one slash.
    /// `path` with every symbolic link resolved (`realpath`), or `path` itself if it cannot be.
    static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public static func join(_ base: String, _ component: String) -> String {
        if base.isEmpty { return component }
        if component.isEmpty { return base }
        let trimmedBase = base.hasSuffix("/") ? String(base.dropLast()) : base
        let trimmedComponent = component.hasPrefix("/") ? String(component.dropFirst()) : component
        return trimmedBase + "/" + trimmedComponent
    }

    /// The folder holding `path`: everything before its last component ("/" for "/a").
    public static func parent(of path: String) -> String {
        let standardized = standardize(path)
        guard let slash = standardized.lastIndex(of: "/") else { return "." }
        if slash == standardized.startIndex { return "/" }
        return String(standardized[..<slash])
    }

    /// `path` with a leading `~` or `~/` replaced by `home`, and `~user` by that user's home.
    public static func expandingTilde(_ path: String, home: String?) -> String {
        guard path.hasPrefix("~") else { return path }
        let rest = path.dropFirst()
        let user = rest.prefix { $0 != "/" }
        let tail = String(rest.dropFirst(user.count))
        if user.isEmpty {
            guard let home, !home.isEmpty else { return path }
            return tail.isEmpty ? home : join(home, tail)
        }
        guard let entry = getpwnam(String(user)), let dir = entry.pointee.pw_dir else { return path }
        let userHome = String(cString: dir)
        return tail.isEmpty ? userHome : join(userHome, tail)
    }

    /// `path` without empty and `.` components, with each `..` taking away the component before
    /// it (never above the root) and without a trailing slash. Symbolic links are not resolved.
    public static func standardize(_ path: String) -> String {
        // Most paths (every one a cache hit sees) are standard already; checking is a byte scan,
        // while rebuilding costs arrays of substrings and a join.
        isStandard(path) ? path : rebuilt(path)
    }

    /// `standardize` the long way: split into components and joined again.
    static func rebuilt(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var kept: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".":
                continue
            case "..":
                if let last = kept.last, last != ".." {
                    kept.removeLast()
                } else if !absolute {
                    kept.append(component)
                }
            default:
                kept.append(component)
            }
        }
        let joined = kept.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// Whether `standardize` would return `path` unchanged: not empty, no empty, `.` or `..`
    /// component, no trailing slash (but "/" itself).
    static func isStandard(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var length = 0 // of the current component
        var onlyDots = true
        for (offset, byte) in path.utf8.enumerated() {
            guard byte == slash else {
                length += 1
                onlyDots = onlyDots && byte == dot
                continue
            }
            if length == 0 ? offset != 0 : onlyDots && length <= 2 { return false }
            length = 0
            onlyDots = true
        }
        if length == 0 { return path == "/" }
        return !(onlyDots && length <= 2)
    }
}
