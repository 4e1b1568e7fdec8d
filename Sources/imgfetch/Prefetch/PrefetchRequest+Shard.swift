import ImageFetchKit

extension PrefetchRequest {
    /// The shard `--shard` names, else `IMGFETCH_SHARD` (either may be `auto`: the job engine's
    /// variables); nil for the whole list. A bad value anywhere is a usage error: running the
    /// whole list instead would fetch what the other workers fetch.
    func resolvedShard() throws -> PrefetchShard? {
        let (text, source) = if let shard { (shard, "--shard") } else { (ProcessEnvironment.value("IMGFETCH_SHARD") ?? "", "IMGFETCH_SHARD") }
        guard !text.isEmpty else { return nil }
        if text == "auto" {
            do {
                return try PrefetchShard.fromEngine(environment: ProcessEnvironment.value)
            } catch {
                Terminal.writeError("imgfetch: \(error)\n")
                throw ExitStatus.usage.exitCode
            }
        }
        guard let shard = PrefetchShard(parsing: text) else {
            Terminal.writeError("imgfetch: \(source) '\(text)' is not I/N with 0 ≤ I < N (e.g. 0/4) or auto.\n")
            throw ExitStatus.usage.exitCode
        }
        return shard
    }
}
