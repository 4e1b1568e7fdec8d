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
        "read-write uploads what the origin gave; read never writes (for untrusted workers).", valueName: "mode"))
    var remoteCacheMode: RemoteCacheConfiguration.Mode = .readWrite

    func validate() throws {
        guard let remoteCache else { return }
        do {
            _ = try RemoteCacheLocation(parsing: remoteCache, environment: ProcessEnvironment.value)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension RemoteCacheConfiguration.Mode: ExpressibleByArgument {}

extension RemoteCacheOptions {
    /// The remote tier `--remote-cache` (`explicit`) or `IMGFETCH_REMOTE_CACHE` names, with its
    /// warnings going to stderr; nil for none. Reports a bad setting and throws exit status 2.
    static func configuration(explicit: String?, mode: RemoteCacheConfiguration.Mode) throws -> RemoteCacheConfiguration? {
        guard let text = explicit ?? ProcessEnvironment.value("IMGFETCH_REMOTE_CACHE"), !text.isEmpty else { return nil }
        do {
            let location = try RemoteCacheLocation(parsing: text, environment: ProcessEnvironment.value)
            return RemoteCacheConfiguration(location: location, mode: mode) { warning in
                Terminal.writeError("imgfetch: warning: \(warning)\n")
            }
        } catch {
            Terminal.writeError("imgfetch: \(error)\n")
            throw ExitStatus.usage.exitCode
        }
    }
}

extension RemoteCacheReport {
    /// `remote cache s3://b/p: 250 hits, 750 misses, 0 damaged; 750 uploaded, 0 not uploaded`
    func text(tier: String) -> String {
        "remote cache \(tier): \(hits) hits, \(misses) misses, \(damaged) damaged; \(uploaded) uploaded, \(uploadFailures) not uploaded"
            + (downReason == nil ? "" : " (out of use since its first failure)")
    }
}
