import ImageFetchKit
import Synchronization

/// The exit statuses of a batch's failures, kept as a set (not a list) so a million failures cost
/// nothing; gives the same status `ExitStatus.combining` gives for a list.
final class FailureTally: Sendable {
    private let statuses = Mutex<Set<ExitStatus>>([])

    func record(_ error: LoaderError) {
        record(ExitStatus(error.category))
    }

    func record(_ status: ExitStatus) {
        _ = statuses.withLock { $0.insert(status) }
    }

    /// The class of every failure when all `total` inputs failed for one reason; otherwise
    /// `partialFailure` if any failed, else `success`.
    func status(failed: Int, total: Int) -> ExitStatus {
        let statuses = self.statuses.withLock { $0 }
        guard failed > 0 else { return .success }
        if failed == total, statuses.count == 1, let only = statuses.first { return only }
        return .partialFailure
    }
}
