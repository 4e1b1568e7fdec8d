import ImageFetchKit

extension RetryNotice {
    /// The `-v` line for a retry: its wait, which attempt comes, and why the last one failed.
    var verboseLine: String {
        let (seconds, attoseconds) = wait.components
        let wait = Double(seconds) + Double(attoseconds) / 1e18
        let tenths = Int((wait * 10).rounded())
        let waitText = wait < 10 ? "\(tenths / 10).\(tenths % 10) s" : "\(Int(wait.rounded())) s"
        return "imgfetch: retrying in \(waitText) (attempt \(attempt) of \(attempts)): \(reason)"
    }
}
