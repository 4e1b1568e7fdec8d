import CCurl
import FoundationEssentials
import Synchronization

/// The process's one network engine: a libcurl multi handle driven by one dedicated thread.
///
/// Other threads only post commands into a locked inbox and wake the thread with
/// `curl_multi_wakeup` (which libcurl allows from any thread); everything else, the in-flight
/// transfer map included, belongs to the engine thread (`EngineLoop`).
final class CurlEngine: Sendable {
    /// Loads libcurl, initialises it and makes the engine: on the thread that will run its loop
    /// (`EngineStart`), so that no thread is started after the load; or why libcurl cannot be loaded.
    static func load() -> Result<CurlEngine, LoadFailure> {
        if let failure = imgfetch_curl_load() {
            return .failure(LoadFailure(reason: String(cString: failure)))
        }
        return .success(CurlEngine())
    }

    /// libcurl is missing or too old; every download fails with this reason.
    struct LoadFailure: Error {
        let reason: String
    }

    /// Touched off the engine thread only by `curl_multi_wakeup`, which is thread-safe.
    nonisolated(unsafe) let multi: UnsafeMutableRawPointer
    private let inbox = Mutex<[EngineCommand]>([])
    private static let ids = Atomic<UInt64>(1)

    private init() {
        // OpenSSL's initialisation (2.3M instructions, 1.7M of them reading openssl.cnf) cannot
        // be left out for an http:// URL: since libcurl 7.57 the CURL_GLOBAL_SSL bit means
        // nothing, global_init always initialises the TLS backend, and curl_easy_init runs it
        // itself if we do not. Measured on libcurl 7.88 in a C program: 18,164,428 instructions
        // with CURL_GLOBAL_DEFAULT and with CURL_GLOBAL_NOTHING alike.
        imgfetch_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        // curl_multi_init fails only when out of memory, where nothing else could work either.
        multi = imgfetch_curl_multi_init()!
    }

    /// A process-unique identifier for a requester or a downloader.
    static func makeID() -> UInt64 {
        ids.add(1, ordering: .relaxed).oldValue
    }

    /// Posts `command` to the engine thread. Wakes it only when the inbox was empty: otherwise
    /// a wakeup is already pending and the thread will drain this command with the others.
    func send(_ command: EngineCommand) {
        let wasEmpty = inbox.withLock { commands in
            commands.append(command)
            return commands.count == 1
        }
        if wasEmpty { imgfetch_curl_multi_wakeup(multi) }
    }

    /// Everything posted since the last call, in order. Engine thread only.
    func takeCommands() -> [EngineCommand] {
        inbox.withLock { commands in
            let taken = commands
            commands = []
            return taken
        }
    }
}

/// A downloader as the engine sees it: its own queue, limit and observer.
struct EngineClient: Sendable {
    let id: UInt64
    let configuration: DownloaderConfiguration
    let observer: (@Sendable (DownloadEvent) -> Void)?
}

/// One caller waiting on a transfer. `complete` is called exactly once: on the engine thread, or
/// by `EngineStart` when libcurl cannot be loaded.
struct Requester: Sendable {
    let id: UInt64
    let request: DownloadRequest
    let progress: (@Sendable (DownloadProgress) -> Void)?
    let complete: @Sendable (Result<DownloadResponse, DownloadError>) -> Void
}

enum EngineCommand: Sendable {
    case add(Requester, EngineClient)
    case cancel(requesterID: UInt64)
    /// Cancel every requester of a downloader (`Downloader.stop`).
    case stop(clientID: UInt64)
    /// The cookies a downloader's cookie store holds, as lines of a Netscape cookie file.
    case cookies(clientID: UInt64, reply: @Sendable ([String]) -> Void)
}
