import FoundationEssentials

/// `--max-failures N` or `P%`: how many failed URLs a prefetch may have and still exit 0, so a
/// worker in a job engine stays green when a few images of millions are gone. The failures are
/// still reported and counted in the summary.
struct FailureBudget: Sendable, Equatable, CustomStringConvertible {
    enum Limit: Sendable, Equatable {
        case count(Int)
        /// A percentage of the URLs the run took (a shard's, with --shard).
        case percent(Double)
    }

    let limit: Limit
    /// As given: `5` or `0.5%`.
    let description: String

    /// `N` (a whole number ≥ 0) or `P%` (0 ≤ P ≤ 100); nil for anything else.
    init?(parsing text: String) {
        description = text
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent.isFinite, (0...100).contains(percent) else { return nil }
            limit = .percent(percent)
        } else {
            guard let count = Int(text), count >= 0 else { return nil }
            limit = .count(count)
        }
    }

    /// Whether `failed` failures among `total` URLs stay within the budget.
    func allows(failed: Int, total: Int) -> Bool {
        switch limit {
        case .count(let count): failed <= count
        case .percent(let percent): Double(failed) <= Double(total) * percent / 100
        }
    }
}
