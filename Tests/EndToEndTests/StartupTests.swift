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
