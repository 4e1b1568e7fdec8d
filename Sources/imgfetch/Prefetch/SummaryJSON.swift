import FoundationEssentials
import Glibc
import ImageFetchKit

/// `prefetch --summary-json FILE`: the run's counts as one JSON object, for the job engine that
/// started the worker to collect (written whole, by rename, when the run ends, signals included).
struct SummaryJSON {
    var list: String
    var summary: PrefetchSummary
    var failures: [ExitStatus: Int]
    var shard: ShardTally?
    var remote: RemoteCacheReport?
    var tier: String?
    var exitStatus: ExitStatus
    var stoppedBySignal: Bool

    /// The keys of `failed_by_kind`, one per class of failure.
    static func kind(_ status: ExitStatus) -> String {
        switch status {
        case .usage: "bad_line"
        case .network: "network"
        case .http: "http"
        case .notAnImage: "not_an_image"
        case .cacheMiss: "not_cached"
        case .blockedAsFailed: "blocked"
        case .fileError: "file"
        default: "other"
        }
    }

    var text: String {
        var json = JSONLine()
        json.add("list", list)
        json.add("shard", shard.map { $0.shard.description })
        json.add("list_urls", shard?.listed)
        json.add("urls", summary.total)
        var loaded = JSONLine()
        loaded.add("network", summary.fetched)
        loaded.add("remote", summary.fromRemote)
        loaded.add("disk", summary.fromDisk)
        loaded.add("memory", summary.alreadyCached - summary.fromDisk)
        json.add("loaded", raw: loaded.text)
        json.add("failed", summary.failed)
        var kinds = JSONLine()
        for (status, count) in failures.sorted(by: { Self.kind($0.key) < Self.kind($1.key) }) { kinds.add(Self.kind(status), count) }
        json.add("failed_by_kind", raw: kinds.text)
        json.add("fetched_bytes", Int(summary.fetchedBytes))
        json.add("cached_bytes", Int(summary.cachedBytes))
        json.add("remote_cache", raw: remote.map { Self.remoteText($0, tier: tier) } ?? "null")
        json.add("elapsed_s", raw: DecimalText.fixed(summary.elapsed, digits: 3))
        json.add("exit_status", Int(exitStatus.rawValue))
        json.add("stopped_by_signal", stoppedBySignal)
        return json.text
    }

    private static func remoteText(_ report: RemoteCacheReport, tier: String?) -> String {
        var json = JSONLine()
        json.add("tier", tier)
        json.add("hits", report.hits)
        json.add("misses", report.misses)
        json.add("damaged", report.damaged)
        json.add("uploaded", report.uploaded)
        json.add("not_uploaded", report.uploadFailures)
        let health = report.health
        json.add("retries", health.retries)
        json.add("read_pauses", health.readPauses)
        json.add("read_pause_reason", health.readPauseReason)
        json.add("write_pauses", health.writePauses)
        json.add("write_pause_reason", health.writePauseReason)
        json.add("read_only_reason", health.readOnlyReason)
        json.add("reads_skipped_while_paused", health.readsSkippedWhilePaused)
        json.add("times_found_slow", health.timesFoundSlow)
        json.add("reads_skipped_as_slow", health.readsSkippedAsSlow)
        return json.text
    }

    /// Writes the object and a newline to `path` (`WholeFile.write(_:to:)`: a regular file
    /// through a temporary one and a rename, so a collector never reads half of it); throws the
    /// reason it could not.
    func write(to path: String) throws(WriteError) {
        do throws(OutputError) {
            try WholeFile.write(Data((text + "\n").utf8), to: path)
        } catch {
            guard case .cannotWrite(_, let reason) = error else { throw WriteError(description: error.description) }
            throw WriteError(description: reason)
        }
    }

    struct WriteError: Error, CustomStringConvertible {
        let description: String
    }
}
