import Glibc

/// How a finished command leaves the process: `_exit`, not `exit`.
///
/// Why: when a command returns, everything it must finish is finished. Its results are written
/// (`StandardOutput.flush`), `-o` files renamed into place, remote-tier uploads awaited,
/// temporary files renamed or removed, and the loader released, which closes the index
/// connections (checkpointing a write-ahead log over `SQLiteDatabase.uncheckpointedFrameLimit`)
/// before the command returns. All `exit` would add is clean-up of what the kernel frees anyway:
/// OpenSSL's atexit handler (OPENSSL_cleanup, registered when libcurl initialises it) and the
/// destructors of libcurl's 30-odd libraries (36 `fini` calls) and of the static Swift runtime.
/// That was 0.7M of a one-URL miss's 27.3M instructions (callgrind; 1.00M to 0.30M after its
/// last write to stdout); a hit, which loads no libcurl, saves 7k. In wall time it is small: 0.3
/// to 0.7 ms in the quieter sessions (the last line to the process's end, 1.74 to 1.41 ms in a
/// probe timeline; hyperfine 11.9 to 11.2 ms), lost in the noise when the machine was busy.
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
