import ArgumentParser
import ImageFetchKit

/// Where the shared remote cache tier is and whether this run may write to it.
struct RemoteCacheOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Share images with other machines through this cache, after the disk cache and before the origin: "
            + "http(s)://host/prefix (any server that takes PUT, e.g. nginx WebDAV) or s3://bucket/prefix "
            + "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL) (default: $IMGFETCH_REMOTE_CACHE).",
        valueName: "url"))
    var remoteCache: String?

    @Option(help: ArgumentHelp(
        "read-write uploads what the origin gave; read never writes (for untrusted workers) "
            + "(default: $IMGFETCH_REMOTE_CACHE_MODE, else read-write).", valueName: "mode"))
    var remoteCacheMode: RemoteCacheConfiguration.Mode?

    func validate() throws {
        guard let remoteCache else { return }
        do {
            _ = try RemoteCacheLocation(parsing: remoteCache, environment: ProcessEnvironment.value)
        } catch where !error.comesFromEnvironment {
            throw ValidationError(error.description)
        } catch {
            // The environment's part: a warning when the loader is made (see `configuration`).
        }
    }
}

extension RemoteCacheConfiguration.Mode: ExpressibleByArgument {}

extension RemoteCacheOptions {
    /// The remote tier `--remote-cache` (`explicit`) or `IMGFETCH_REMOTE_CACHE` names, in the mode
    /// `--remote-cache-mode` or `IMGFETCH_REMOTE_CACHE_MODE` gives, with its warnings (and with
    /// `verbose` its notes) going to stderr; nil for none.
    ///
    /// A bad setting on the command line is a usage error (exit status 2); a bad one from the
    /// environment (either variable, or the AWS ones an s3:// tier reads) is a warning and a run
    /// without the tier: a variable set for a whole fleet must not stop a `get` of a cached image.
    static func configuration(explicit: String?, mode: RemoteCacheConfiguration.Mode?, verbose: Bool) throws -> RemoteCacheConfiguration? {
        guard let text = explicit ?? ProcessEnvironment.value("IMGFETCH_REMOTE_CACHE"), !text.isEmpty else { return nil }
        func withoutTier(_ problem: String) -> RemoteCacheConfiguration? {
            Terminal.writeError("imgfetch: warning: \(problem) This run goes without the remote cache.\n")
            return nil
        }
        var resolvedMode = RemoteCacheConfiguration.Mode.readWrite
        if let mode {
            resolvedMode = mode
        } else if let name = ProcessEnvironment.value("IMGFETCH_REMOTE_CACHE_MODE"), !name.isEmpty {
            guard let named = RemoteCacheConfiguration.Mode(rawValue: name) else {
                return withoutTier("IMGFETCH_REMOTE_CACHE_MODE '\(name)' is neither read-write nor read.")
            }
            resolvedMode = named
        }
        let location: RemoteCacheLocation
        do {
            location = try RemoteCacheLocation(parsing: text, environment: ProcessEnvironment.value)
        } catch {
            guard explicit == nil || error.comesFromEnvironment else {
                Terminal.writeError("imgfetch: \(error)\n")
                throw ExitStatus.usage.exitCode
            }
            return withoutTier(explicit == nil ? "IMGFETCH_REMOTE_CACHE: \(error)" : error.description)
        }
        return RemoteCacheConfiguration(
            location: location, mode: resolvedMode,
            warn: { warning in Terminal.writeError("imgfetch: warning: \(warning)\n") },
            note: { note in if verbose { Terminal.writeError("imgfetch: \(note)\n") } })
    }
}

extension RemoteCacheReport {
    /// `remote cache s3://b/p: 250 hits, 750 misses, 0 damaged; 750 uploaded, 0 not uploaded`,
    /// then what the health rules did, when they did anything:
    /// `; 3 retried; reads paused 1 time (…), 40 loads skipped it; read-only (…)`.
    func text(tier: String) -> String {
        var text = "imgfetch: remote cache \(tier): \(hits) hits, \(misses) misses, \(damaged) damaged; \(uploaded) uploaded, \(uploadFailures) not uploaded"
        if health.retries > 0 { text += "; \(health.retries) retried" }
        if health.readPauses > 0 {
            text += "; reads paused \(Self.times(health.readPauses)) (\(health.readPauseReason ?? "")), \(health.readsSkippedWhilePaused) loads skipped it"
        }
        if health.writePauses > 0 { text += "; writes paused \(Self.times(health.writePauses)) (\(health.writePauseReason ?? ""))" }
        if let reason = health.readOnlyReason { text += "; read-only after a refused upload (\(reason))" }
        if health.timesFoundSlow > 0 || health.readsSkippedAsSlow > 0 {
            text += "; slower than the origin \(Self.times(health.timesFoundSlow)), \(health.readsSkippedAsSlow) loads skipped it"
        }
        return text
    }

    private static func times(_ count: Int) -> String { count == 1 ? "1 time" : "\(count) times" }
}
