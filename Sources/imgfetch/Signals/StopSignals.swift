import Glibc
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, turned into calls on an ordinary thread.
///
/// A signal handler may only call async-signal-safe functions, so the handler here does one
/// thing: it writes the signal's number to a pipe (the self-pipe pattern). A dedicated thread
/// reads the pipe and calls the watcher with the signal and how many stop signals came so far,
/// where locks, cancellation and file removal are all allowed. A handler (not `sigwait`) catches
/// the signal on whichever thread the kernel picks, so threads started before `watch` — the
/// concurrency runtime's, libcurl's — need no blocked signal mask.
enum StopSignals {
    /// The signals that ask a run to stop.
    static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Starts watching; call once per process. `onSignal` runs on the watcher thread, one signal
    /// at a time, with the signal's number and its rank among the stop signals (1 for the first).
    static func watch(_ onSignal: @escaping @Sendable (_ signal: Int32, _ count: Int) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe must never block the handler: a dropped byte only loses a repeat signal.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        readEnd = ends[0]
        writeEnd = ends[1]
        watcher = onSignal
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { _ in StopSignals.forwardSignals(); return nil }, nil) == 0 else { return }
        pthread_detach(thread)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(StopSignals.writeEnd, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for number in numbers { sigaction(number, &action, nil) }
    }

    /// The exit status for a run a stop signal ended: 128 + the signal's number as a shell shows
    /// it, SIGHUP reported as SIGTERM.
    static func exitStatus(for signal: Int32) -> ExitStatus {
        signal == SIGINT ? .interrupted : .terminated
    }

    // Written once by `watch` before the handler is installed and the thread started (both of
    // which order the writes before any read), read-only afterwards.
    nonisolated(unsafe) private static var readEnd: Int32 = -1
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var watcher: (@Sendable (Int32, Int) -> Void)?

    /// The watcher thread's loop: one call per signal byte.
    private static func forwardSignals() {
        var count = 0
        var byte: UInt8 = 0
        while true {
            let got = read(readEnd, &byte, 1)
            if got < 0, errno == EINTR { continue }
            guard got == 1 else { return }
            count += 1
            watcher?(Int32(byte), count)
        }
    }
}
