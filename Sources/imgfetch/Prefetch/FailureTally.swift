import ImageFetchKit
import Synchronization

/// The exit statuses of a batch's failures, counted per status (a handful of keys, so a million
/// failures cost nothing); gives the same status `ExitStatus.combining` gives for a list.
final class FailureTally: Sendable {
    private let counts = Mutex<[ExitStatus: Int]>([:])

    func record(_ error: LoaderError) {
        record(ExitStatus(error.category))
    }

    func record(_ status: ExitStatus) {
        counts.withLock { $0[status, default: 0] += 1 }
    }

    /// Failures per status.
    var byStatus: [ExitStatus: Int] { counts.withLock { $0 } }

    /// The class of every failure when all `total` inputs failed for one reason; otherwise
    /// `partialFailure` if any failed, else `success`.
    func status(failed: Int, total: Int) -> ExitStatus {
        let statuses = Set(byStatus.keys)
        guard failed > 0 else { return .success }
        if failed == total, statuses.count == 1, let only = statuses.first { return only }
        return .partialFailure
    }
}
