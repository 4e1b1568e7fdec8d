import Glibc

/// How a finished command leaves the process: `_exit`, not `exit`.
///
/// Why: when a command returns, everything it must finish is finished. Its results are written
/// (`StandardOutput.flush`), `-o` files renamed into place, remote-tier uploads awaited,
/// temporary files renamed or removed, and the loader released, which closes the index
/// connections (checkpointing a write-ahead log over `SQLiteDatabase.uncheckpointedFrameLimit`)
/// before the command returns. All `exit` would add is clean-up of what the kernel frees anyway:
/// OpenSSL's atexit handler (OPENSSL_cleanup, registered when libcurl initialises it) and the
/// destructors of libcurl's 30-odd libraries and of the static Swift runtime. That was 0.7M of
/// a one-URL miss's 27.3M instructions (callgrind) and 0.7 ms of its 11.9 ms (hyperfine
/// median, alternating runs); a hit, which loads no libcurl, saved 7k instructions.
/// Nothing observable changes: the kernel closes every descriptor and releases every lock at
/// exit either way, and the cache is left exactly as a crash at this point would leave it,
/// which it is built to survive. (StartupTests checks that the index is closed first.)
enum ProcessExit {
    /// Ends the process with `status` after flushing C's stdio streams (argument-parser prints
    /// through them), without running atexit handlers or library destructors.
    static func now(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}
