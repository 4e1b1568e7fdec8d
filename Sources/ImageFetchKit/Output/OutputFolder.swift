import FoundationEssentials
import Glibc
import Synchronization

/// A directory the user asked images to be written into (`--output-dir`, `cache export`), each
/// under the name its template gives it.
///
/// A name never leaves the directory: the template is checked when parsed, each rendered name
/// again, and every folder on the way is opened relative to the one before with `O_NOFOLLOW`, so
/// a link inside the directory (put there by anyone) is refused rather than followed. Each file
/// is written whole: a temporary file beside it, then `rename`, so a reader never sees half an
/// image. Files get mode 0666 less the umask, as `cp` gives them (cached files stay 0600).
/// Two images of one run that would take one name: the second is an error, not an overwrite.
///
/// Thread safety: `write` may be called from any task; the names taken are behind a mutex.
public final class OutputFolder: Sendable {
    public let directory: String
    public let template: OutputNameTemplate
    private let descriptor: Int32
    /// Each name written in this run, and the image it was written for: its key (so one URL
    /// given twice writes its name twice, while an original and its variant do not share one)
    /// and its URL (for the message).
    private let taken = Mutex<[String: (key: String, url: String)]>([:])

    /// Opens (creating it if needed) `directory`.
    public init(directory: String, template: OutputNameTemplate) throws(OutputError) {
        self.directory = directory
        self.template = template
        if mkdir(directory, 0o777) != 0, errno != EEXIST {
            throw .directoryUnusable(directory, reason: Self.text(errno))
        }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .directoryUnusable(directory, reason: Self.text(errno)) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Writes the image at `source` (a cached file) or `data` under its name; returns the path
    /// written, `directory` + "/" + the name.
    public func write(file source: String?, data: Data?, facts: OutputFacts) throws(OutputError) -> String {
        var facts = facts
        if template.usesSHA256 {
            let bytes: Data
            if let data { bytes = data } else { bytes = try Self.read(source ?? "") }
            facts.sha256 = SHA256.hexDigest(bytes)
        }
        let name = try template.name(for: facts)
        let identity = facts.key ?? facts.url
        let claimed = taken.withLock { names -> String? in
            if let other = names[name], other.key != identity { return other.url }
            names[name] = (identity, facts.url)
            return nil
        }
        if let claimed { throw .nameTaken(name: name, by: claimed) }
        let path = directory + "/" + name
        var folders = name.split(separator: "/").map(String.init)
        let file = folders.removeLast()
        let folder = try openFolders(folders, name: name)
        defer { if folder != descriptor { close(folder) } }
        try WholeFile.write(into: folder, name: file, from: source, data: data, path: path)
        return path
    }

    /// Opens (making them as needed) `folders` below the directory, one at a time and never
    /// through a link; the last one's descriptor.
    private func openFolders(_ folders: [String], name: String) throws(OutputError) -> Int32 {
        var current = descriptor
        for folder in folders {
            if mkdirat(current, folder, 0o777) != 0, errno != EEXIST {
                let code = errno
                if current != descriptor { close(current) }
                throw .cannotWrite(path: directory + "/" + name, reason: Self.text(code))
            }
            let next = openat(current, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            if current != descriptor { close(current) }
            guard next >= 0 else {
                let reason = code == ELOOP || code == ENOTDIR ? "'\(folder)' is a link or not a folder" : Self.text(code)
                throw .unusableName(name: name, reason: reason)
            }
            current = next
        }
        return current
    }

    private static func read(_ path: String) throws(OutputError) -> Data {
        do { return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) } catch {
            throw .cannotRead(path: path, reason: SystemErrorText.describe(error))
        }
    }

    static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
