import XCTest

/// libcurl is loaded at the first network use, so runs that never fetch skip its dynamic linking.
/// The dynamic loader's own trace (`LD_DEBUG=files`) says which libraries a run loaded.
final class StartupTests: EndToEndTestCase {
    func testCacheHitNeverLoadsLibcurl() throws {
        let url = url("baseline.jpg")
        let fetch = try imgfetch(["get", url], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertTrue(fetch.stderr.contains("libcurl.so.4"), "a fetch loads libcurl")

        let hit = try imgfetch(["get", url], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(hit.status, 0, hit.stderr)
        XCTAssertEqual(hit.stdout, fetch.stdout)
        XCTAssertFalse(hit.stderr.contains("libcurl"), "a cache hit must not load libcurl")
        XCTAssertEqual(try requests("/baseline.jpg"), 1)
    }

    /// The codec libraries are loaded at the first decode: fetching validates headers with
    /// imgfetch's own parsers, and a hit decodes nothing.
    func testFetchAndCacheHitNeverLoadTheCodecLibrariesButADecodeDoes() throws {
        let codecs = ["libpng16", "libturbojpeg", "libjpeg", "libwebp", "libgif"]
        for name in ["baseline.jpg", "alpha.png"] {
            let fetch = try imgfetch(["get", url(name)], environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(fetch.status, 0, fetch.stderr)
            let hit = try imgfetch(["get", url(name)], environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(hit.status, 0, hit.stderr)
            for library in codecs {
                XCTAssertFalse(fetch.stderr.contains(library + ".so"), "a fetch of \(name) loaded \(library)")
                XCTAssertFalse(hit.stderr.contains(library + ".so"), "a hit of \(name) loaded \(library)")
            }
        }
        let file = Self.fixtures.appendingPathComponent("alpha.png").path
        let decode = try imgfetch(["info", "--decode", file], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(decode.status, 0, decode.stderr)
        XCTAssertTrue(decode.stderr.contains("libpng16.so.16"), "decoding a PNG loads libpng")
    }

    /// A `get` the caches answer runs on the main thread alone: the concurrency runtime starts its
    /// threads only for a URL that must be fetched. strace shows every thread a run starts.
    func testCacheHitStartsNoThreadButAFetchDoes() throws {
        func threadsStarted(_ arguments: [String]) throws -> [String] {
            lines(try traced(arguments, syscalls: "clone,clone3", followingThreads: true)).filter { $0.contains("clone") }
        }
        let url = url("baseline.jpg")
        XCTAssertFalse(try threadsStarted(["get", url]).isEmpty, "a fetch runs the downloader's and the runtime's threads")
        XCTAssertEqual(try threadsStarted(["get", url]), [], "a cache hit must start no thread")
        XCTAssertEqual(try threadsStarted(["get", "--json", url, url]), [], "nor two hits")
        XCTAssertEqual(try requests("/baseline.jpg"), 1)
    }

    /// A hit is answered from the cache file's stamp (its `user.imgfetch` extended attribute):
    /// the SQLite index is never opened. strace shows every file a run opens.
    func testCacheHitNeverOpensTheIndex() throws {
        let url = url("baseline.jpg")
        let fetch = try imgfetch(["get", url])
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        let path = fetch.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let stamped = try Shell.run("python3 -c 'import os, sys; os.getxattr(sys.argv[1], \"user.imgfetch\")' \(Shell.quote(path))")
        if stamped.status != 0 { throw XCTSkip("this filesystem keeps no user extended attributes: \(stamped.stderr)") }

        let opens = try traced(["get", url], syscalls: "open,openat", followingThreads: false)
        XCTAssertTrue(opens.contains("libc.so"), "strace saw the run's opens")
        XCTAssertFalse(opens.contains("index.sqlite"), "a cache hit must not open the index:\n\(opens)")
        XCTAssertEqual(try requests("/baseline.jpg"), 1)
    }

    /// A first fetch syncs nothing to disk, into a new cache or an existing one: the image file
    /// and the index commit are not synced under the default durability, a new index is made
    /// without syncs, and a closing process leaves a small write-ahead log unsynced instead of
    /// checkpointing it (each sync cost 1–4 ms here; a miss made five, a new cache nine).
    func testAFetchIntoANewOrAnExistingCacheSyncsNothing() throws {
        let syncs = "fsync,fdatasync,sync_file_range,syncfs,msync"
        let first = try traced(["get", url("baseline.jpg")], syscalls: syncs, followingThreads: true)
        XCTAssertEqual(lines(first), [], "a get into a new cache synced")
        let second = try traced(["get", url("alpha.png")], syscalls: syncs, followingThreads: true)
        XCTAssertEqual(lines(second), [], "a get into an existing cache synced")

        let listed = try imgfetch(["cache", "ls"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(lines(listed.stdout).count, 2, "a later process sees both entries:\n\(listed.stdout)")
        let verified = try imgfetch(["cache", "verify"])
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
    }

    /// A finished run ends with `_exit` (see `ProcessExit`): no library destructor and no atexit
    /// handler runs, after a fetch (libcurl and OpenSSL loaded), a hit, a failed fetch and a
    /// command read by argument-parser. The dynamic loader's trace names every destructor it
    /// calls ("calling fini").
    func testAFinishedRunSkipsTheLibrariesTeardown() throws {
        let url = url("baseline.jpg")
        let runs: [(arguments: [String], status: Int32)] = [
            (["get", url], 0), (["get", url], 0), (["get", self.url("missing.jpg", ["status": "404"])], 4),
            (["cache", "ls"], 0),
        ]
        for run in runs {
            let result = try imgfetch(run.arguments, environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(result.status, run.status, "\(run.arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("calling init"), "the loader's trace is on")
            XCTAssertFalse(result.stderr.contains("calling fini"), "\(run.arguments) ran the libraries' destructors")
        }
        XCTAssertEqual(try requests("/baseline.jpg"), 1)
    }

    /// ...but only after the index is closed: every descriptor opened on the index file is
    /// closed (by SQLite, releasing its locks) before the process exits.
    func testAFetchClosesTheIndexBeforeItExits() throws {
        let trace = lines(try traced(["get", url("baseline.jpg")], syscalls: "openat,close,exit_group", followingThreads: true))
        var open: Set<String> = [], opened = 0, pendingOpen: Set<String> = []
        for line in trace {
            // "PID  call(...) = result", the thread's id padded with spaces.
            let thread = String(line.prefix { $0.isNumber })
            let call = String(line.dropFirst(thread.count).drop { $0 == " " })
            if call.hasPrefix("exit_group") { break }
            if call.hasPrefix("openat("), call.contains("/index.sqlite\"") {
                if call.hasSuffix("<unfinished ...>") { pendingOpen.insert(thread) } else if let fd = Self.result(of: call) { open.insert(fd); opened += 1 }
            } else if call.hasPrefix("<... openat resumed>"), pendingOpen.remove(thread) != nil, let fd = Self.result(of: call) {
                open.insert(fd)
                opened += 1
            } else if call.hasPrefix("close(") {
                open.remove(String(call.dropFirst(6).prefix { $0.isNumber }))
            }
        }
        XCTAssertGreaterThan(opened, 0, "strace saw the index opened:\n\(trace.joined(separator: "\n"))")
        XCTAssertEqual(open, [], "index descriptors still open at exit:\n\(trace.joined(separator: "\n"))")
    }

    /// The descriptor a traced `openat` returned, if it succeeded.
    private static func result(of call: String) -> String? {
        guard let equals = call.range(of: "= ", options: .backwards) else { return nil }
        let value = call[equals.upperBound...].prefix { $0.isNumber }
        return value.isEmpty ? nil : String(value)
    }

    /// The closing connection still checkpoints a write-ahead log over its limit
    /// (`SQLiteDatabase.uncheckpointedFrameLimit`, 128 frames) before the process exits, and the
    /// checkpoint truncates it: 60 stores leave about 200 frames in `get` and 380 in
    /// `prefetch -j 1` (measured with another connection keeping the log).
    func testARunThatGrewTheLogPastItsLimitCheckpointsItBeforeExiting() throws {
        let urls = (0..<60).map { url("gray.png", ["n": "\($0)"]) }
        let log = cacheDirectory.appendingPathComponent("index.sqlite-wal").path
        let get = try imgfetch(["get"] + urls)
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertEqual(lines(get.stdout).count, 60)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int, 0, "get left its log")

        let list = directory.path("list.txt")
        try (urls.map { $0 + "&m=1" }.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let prefetch = try imgfetch(["prefetch", "-q", "-j", "1", list.path])
        XCTAssertEqual(prefetch.status, 0, prefetch.stderr)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int, 0, "prefetch left its log")
        XCTAssertEqual(try cachedEntries().count, 120)
    }

    /// The thread that loads libcurl runs the engine (see `EngineStart`): it is named before
    /// libcurl's file is opened (a thread started during the load would wait for the dynamic
    /// loader's lock), and it is the thread that connects to the server, so no thread was
    /// started for the engine after the load.
    func testTheThreadThatLoadsLibcurlRunsTheEngine() throws {
        let trace = lines(try traced(["get", url("baseline.jpg")], syscalls: "openat,write,connect", followingThreads: true))
        let named = trace.firstIndex { $0.contains("\"imgfetch.curl\"") }
        let loaded = trace.firstIndex { $0.contains("openat(") && $0.contains("/libcurl.so.4\"") }
        let connected = trace.firstIndex { $0.contains("connect(") && $0.contains("127.0.0.1") }
        let all = trace.joined(separator: "\n")
        guard let named, let loaded, let connected else { return XCTFail("a step is missing from the trace:\n\(all)") }
        XCTAssertLessThan(named, loaded, "the engine thread was named after libcurl was loaded")
        // strace -f starts every line with the thread's id.
        func thread(_ line: String) -> Substring { line.prefix { $0 != " " } }
        XCTAssertEqual(thread(trace[loaded]), thread(trace[connected]), "libcurl was loaded on one thread and run on another:\n\(all)")
    }

    /// A key with no file in the cache is a miss only a fetch can answer: libcurl starts loading
    /// on a thread of its own before the index opens, into an existing cache and into a new one (see
    /// `Downloader.startEngine`). The thread is named as it starts, on the thread that starts it,
    /// so its name comes before the index in the trace whatever the threads do next.
    func testAMissStartsLoadingLibcurlBeforeTheIndexOpens() throws {
        func order(_ name: String) throws -> (started: Int?, index: Int?, trace: String) {
            let trace = lines(try traced(["get", url(name)], syscalls: "openat,write", followingThreads: true))
            let started = trace.firstIndex { $0.contains("\"imgfetch.curl\"") }
            let index = trace.firstIndex { $0.contains("openat(") && $0.contains("/index.sqlite\"") }
            return (started, index, trace.joined(separator: "\n"))
        }
        for name in ["baseline.jpg", "alpha.png"] {  // a new cache, then one that exists
            let (started, index, trace) = try order(name)
            XCTAssertNotNil(started, trace)
            XCTAssertNotNil(index, trace)
            if let started, let index { XCTAssertLessThan(started, index, "\(name): libcurl began loading after the index opened") }
        }
        XCTAssertEqual(try cachedEntries().count, 2)
    }

    /// A miss that may not fetch never loads libcurl: `--cache-only`.
    func testACacheOnlyMissNeverLoadsLibcurl() throws {
        let miss = try imgfetch(["get", "--cache-only", url("baseline.jpg")], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(miss.status, 6, miss.stderr)
        XCTAssertFalse(miss.stderr.contains("libcurl"), "a cache-only miss loaded libcurl")
        XCTAssertEqual(try requests("/baseline.jpg"), 0)
    }

    /// Without libcurl a fetch that needs it fails with the network status and names the package,
    /// and the engine thread waiting for the load ends with it. The library is hidden behind /dev/null in a private mount namespace (needs
    /// root or user namespaces, and unshare(1)).
    func testAMissingLibcurlFailsTheFetchAndNamesThePackage() throws {
        let library = "/usr/lib/x86_64-linux-gnu/libcurl.so.4"
        guard FileManager.default.fileExists(atPath: library) else { throw XCTSkip("\(library) is not where this test hides it") }
        func withoutLibcurl(_ arguments: [String]) throws -> Imgfetch.Result {
            let command = ([Imgfetch.binary.path] + arguments).map(Shell.quote).joined(separator: " ")
            let script = "mount --bind /dev/null \(Shell.quote(library)) && exec \(command)"
            return try Shell.run(
                "exec unshare --mount -- bash -c \(Shell.quote(script))", environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])
        }
        let result = try withoutLibcurl(["get", url("baseline.jpg")])
        if result.status != 3, result.stderr.contains("unshare") || result.stderr.contains("mount:") {
            throw XCTSkip("no private mount namespace here: \(result.stderr)")
        }
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot load libcurl.so.4 (Debian package libcurl4"), result.stderr)
        XCTAssertEqual(try requests("/baseline.jpg"), 0)
        XCTAssertEqual(try cachedEntries().count, 0)
    }

    /// strace's trace of `syscalls` in one run of imgfetch with `arguments` on this test's cache;
    /// skips the test where strace cannot trace. The run must succeed.
    private func traced(_ arguments: [String], syscalls: String, followingThreads: Bool) throws -> String {
        let command = ([Imgfetch.binary.path] + arguments).map(Shell.quote).joined(separator: " ")
        let result = try Shell.run(
            "strace \(followingThreads ? "-f " : "")-qq -e trace=\(syscalls) -o /dev/stderr \(command) 2>&1 >/dev/null",
            environment: ["IMGFETCH_CACHE_DIR": cacheDirectory.path])
        if result.stdout.contains("PTRACE") || result.stdout.contains("strace: ") {
            throw XCTSkip("strace cannot trace here: \(result.stdout)")
        }
        XCTAssertEqual(result.status, 0, result.stdout)
        return result.stdout
    }

    func testInfoOnAFileNeverLoadsLibcurl() throws {
        let file = Self.fixtures.appendingPathComponent("baseline.jpg").path
        let result = try imgfetch(["info", file], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("libcurl"))
    }
}
