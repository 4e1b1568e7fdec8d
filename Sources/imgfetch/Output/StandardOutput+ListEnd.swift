import ImageFetchKit

extension StandardOutput {
    /// How `info` and `show` end once every file or URL of their list was done: the remote tier's
    /// uploads finish before the process exits, the cache closes, what was written is flushed,
    /// and the exit status speaks for the whole list (`ExitStatus.combining`).
    func endList(loader: ImageLoader?, failures: [ExitStatus], total: Int) async throws {
        if let loader, loader.hasUsedRemoteCache { _ = await loader.finishRemoteCache() }
        loader?.closeDiskCache()
        flush()
        if isClosed { throw ExitStatus.outputClosed.exitCode }
        let status = ExitStatus.combining(failures, total: total)
        if status != .success { throw status.exitCode }
    }
}
