import FoundationEssentials
import ImageFetchKit
import Synchronization

/// The live status line on stderr: bytes, percent and rate for one transfer; done/total, failed,
/// bytes, rate and ETA for a batch.
///
/// Only drawn when stderr is a terminal and `-q` was not given; otherwise every method but
/// `message(_:)` does nothing, so pipes and log files never see a carriage return. Redraws at most
/// ten times a second however fast events arrive. Safe to call from any task; the lock is never
/// held while calling out.
final class ProgressDisplay: Sendable {
    private struct State {
        var status = BatchStatus()
        var lastDraw: ContinuousClock.Instant?
        var lineShown = false
        var finished = false
    }

    private let enabled: Bool
    private let color: Bool
    private let start = ContinuousClock.now
    private let state = Mutex(State())
    private static let redrawInterval = Duration.milliseconds(100)
    /// Stops the redraws that run while nothing arrives (so a stalled transfer's rate and ETA keep
    /// moving). A closure rather than the `Task`, which a display that never draws would pay a
    /// runtime conformance scan for (see `ImageLoader`).
    private let stopTicking = Mutex<(@Sendable () -> Void)?>(nil)

    /// `total` is the number of inputs when known up front (`get`, a list file counted first),
    /// `nil` for a streamed list (standard input).
    init(quiet: Bool, total: Int?, listFraction: (@Sendable () -> Double?)? = nil) {
        enabled = !quiet && Terminal.stderrIsTerminal
        color = enabled && Terminal.useColor
        state.withLock { $0.status.total = total }
        self.listFraction = listFraction
        guard enabled else { return }
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                self?.tick()
            }
        }
        stopTicking.withLock { $0 = { task.cancel() } }
    }

    private let listFraction: (@Sendable () -> Double?)?

    /// A transfer reported bytes; `url` identifies it among concurrent ones.
    @Sendable func transfer(_ url: String, progress: LoadProgress) {
        guard enabled else { return }
        update { $0.transferred(url, progress) }
    }

    /// One input finished.
    func finished(_ result: LoadResult) {
        guard enabled else { return }
        update { $0.finished(result) }
    }

    /// One input failed without a load (a list line that is not a URL).
    func skipped() {
        guard enabled else { return }
        update { $0.skipped() }
    }

    /// Prints a whole line on stderr (an error or a `-v` note) above the status line.
    func message(_ line: String) {
        guard enabled else {
            Terminal.writeError(line + "\n")
            return
        }
        let fraction = listFraction?()
        let text: String = state.withLock { state in
            var text = state.lineShown ? "\r\u{1B}[2K" : ""
            text += line + "\n"
            if state.lineShown, !state.finished, !state.status.isComplete { text += render(state.status, fraction: fraction) }
            return text
        }
        Terminal.writeError(text)
    }

    /// Removes the status line; call once, before the summary or exit.
    func finish() {
        guard enabled else { return }
        stopTicking.withLock { $0 }?()
        let clear: Bool = state.withLock { state in
            defer { state.finished = true; state.lineShown = false }
            return state.lineShown && !state.finished
        }
        if clear { Terminal.writeError("\r\u{1B}[2K") }
    }

    /// Redraws the line as it stands, if one is showing and no event redrew it just now.
    private func tick() {
        let fraction = listFraction?()
        let text: String? = state.withLock { state in
            guard state.lineShown, !state.finished, !state.status.isComplete else { return nil }
            let now = ContinuousClock.now
            if let last = state.lastDraw, now - last < Self.redrawInterval { return nil }
            state.lastDraw = now
            return "\r\u{1B}[2K" + render(state.status, fraction: fraction)
        }
        if let text { Terminal.writeError(text) }
    }

    private func update(_ change: (inout BatchStatus) -> Void) {
        let fraction = listFraction?()
        let text: String? = state.withLock { state in
            guard !state.finished else { return nil }
            change(&state.status)
            let now = ContinuousClock.now
            // Nothing is left to show once every input is done: `finish()` clears the line.
            if state.status.isComplete { return nil }
            if let last = state.lastDraw, now - last < Self.redrawInterval { return nil }
            state.lastDraw = now
            state.lineShown = true
            return "\r\u{1B}[2K" + render(state.status, fraction: fraction)
        }
        if let text { Terminal.writeError(text) }
    }

    private func render(_ status: BatchStatus, fraction: Double?) -> String {
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        return status.line(elapsed: elapsed, listFraction: fraction, color: color)
    }
}
