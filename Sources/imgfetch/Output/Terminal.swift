import Glibc
import ImageFetchKit

/// Process-wide terminal set-up and stderr.
enum Terminal {
    /// Ignores SIGPIPE so a closed stdout shows up as EPIPE and the command can end quietly.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Colour only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org).
    static var useColor: Bool {
        stderrIsTerminal && (ProcessEnvironment.value("NO_COLOR") ?? "").isEmpty && ProcessEnvironment.value("TERM") != "dumb"
    }

    /// Writes `text` to stderr unbuffered.
    static func writeError(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                // A closed or failing stderr has no one left to tell; give up quietly.
                guard errno == EINTR else { return }
                continue
            }
            offset += written
        }
    }
}
