import Glibc

extension URLListReader {
    /// How many entries the list file at `path` has: its lines that are neither blank nor
    /// comments (each either a URL to load or a line `onRejectedLine` will report), counted by
    /// one pass over the file in chunks, in constant memory. Nil for standard input (`-`), for
    /// anything but a regular file, and when the file cannot be read: a pipe can be read once only.
    public static func countEntries(path: String) -> Int? {
        guard path != "-" else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var count = 0
        // Per line: whether a byte other than space, tab or CR was seen, and whether it was '#'.
        var seenContent = false
        var isComment = false
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var atStart = true
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            var index = 0
            if atStart {
                atStart = false
                if read >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { index = 3 }
            }
            while index < read {
                let byte = buffer[index]
                index += 1
                switch byte {
                case 0x0A:
                    if seenContent, !isComment { count += 1 }
                    seenContent = false
                    isComment = false
                case 0x20, 0x09, 0x0D:
                    break
                default:
                    if !seenContent {
                        seenContent = true
                        isComment = byte == UInt8(ascii: "#")
                    }
                }
            }
        }
        if seenContent, !isComment { count += 1 }
        return count
    }
}
