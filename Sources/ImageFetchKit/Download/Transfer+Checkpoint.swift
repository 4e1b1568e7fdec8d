import FoundationEssentials
import Glibc

/// Mirroring a large body into the requester's partial file as it arrives (`Resume.Checkpoint`).
///
/// Written on the engine thread, `Resume.Checkpoint.interval` bytes at a time and only for bodies
/// past that size, so small images never touch it and a large one costs a write per 4 MiB. The
/// file only ever grows by appends after its head, so whatever a kill leaves is the head and a
/// prefix of the body: a valid partial file. Best effort: a write that fails stops the mirroring.
extension Transfer {
    /// Appends what arrived since the last write, once `Resume.Checkpoint.interval` bytes have.
    func checkpointIfDue() {
        guard let checkpoint = request.checkpoint, let validator = continuableWith,
              body.count - checkpointed >= Resume.Checkpoint.interval else { return }
        if checkpointDescriptor < 0 {
            guard openCheckpoint(checkpoint, validator: validator) else { return }
        }
        let written = body.withUnsafeBytes { bytes in
            writeAll(checkpointDescriptor, bytes.baseAddress! + checkpointed, bytes.count - checkpointed)
        }
        if written { checkpointed = body.count } else { closeCheckpoint() }
    }

    /// Opens the file for appends: the existing partial file when this attempt continues it
    /// (it holds the `bodyOffset` bytes before `body`), else a new one with a head for `validator`.
    private func openCheckpoint(_ checkpoint: Resume.Checkpoint, validator: String) -> Bool {
        if bodyOffset > 0 {
            checkpointDescriptor = open(checkpoint.path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
            return checkpointDescriptor >= 0
        }
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW
        checkpointDescriptor = open(checkpoint.path, flags, 0o600)
        if checkpointDescriptor < 0, errno == ENOENT {
            // The first entry of its shard: the folder is made as a store would make it.
            _ = mkdir(String(checkpoint.path[..<(checkpoint.path.lastIndex(of: "/") ?? checkpoint.path.endIndex)]), 0o700)
            checkpointDescriptor = open(checkpoint.path, flags, 0o600)
        }
        guard checkpointDescriptor >= 0 else { return false }
        let head = checkpoint.head(validator)
        guard head.withUnsafeBytes({ writeAll(checkpointDescriptor, $0.baseAddress!, $0.count) }) else {
            closeCheckpoint()
            return false
        }
        return true
    }

    /// Stops mirroring (the reply replaced the body, or the transfer ended).
    func closeCheckpoint() {
        if checkpointDescriptor >= 0 { close(checkpointDescriptor) }
        checkpointDescriptor = -1
        checkpointed = 0
    }

    private func writeAll(_ descriptor: Int32, _ start: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let written = write(descriptor, start + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
