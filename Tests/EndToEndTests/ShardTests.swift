import Foundation
import TestSupport
import XCTest

/// `--shard`: the split is by the list line as written, reproducible outside imgfetch, and the
/// shard can come from the job engine's variables or `IMGFETCH_SHARD`.
final class ShardTests: RemoteCacheTestCase {
    /// README's one-liner (`python3 -c '…' N < urls.txt`), read from README.md itself so the
    /// test runs what users copy: each line's shard among N and the line.
    static func pythonOneLiner() throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("python3 -c 'import hashlib") })
        let code = line.dropFirst("python3 -c '".count)
        return String(try XCTUnwrap(code.range(of: "' ").map { code[..<$0.lowerBound] }))
    }

    /// Lines with non-ASCII characters as written (which libcurl sends percent-encoded), one
    /// repeated, a comment, a blank line and a line that is no URL.
    private func mixedList() throws -> (path: String, lines: [String]) {
        let base = server.baseURL.absoluteString
        var lines = (0..<24).map { index in
            index % 3 == 0 ? "\(base)/baseline.jpg?n=é\(index)" : "\(base)\(Self.images[index % Self.images.count])?n=\(index)"
        }
        lines.append(lines[4])
        let text = (["# a comment", ""] + lines + ["  not a url é  "]).joined(separator: "\n") + "\n"
        return (try directory.write(Data(text.utf8), to: "mixed.txt").path, lines + ["not a url é"])
    }

    private func pythonShards(of list: String, count: Int) throws -> [String: Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", try Self.pythonOneLiner(), String(count)]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: list))
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        var shards: [String: Int] = [:]
        for line in lines(String(decoding: data, as: UTF8.self)) {
            let parts = line.split(separator: " ", maxSplits: 1)
            shards[String(parts[1])] = Int(parts[0])
        }
        return shards
    }

    func testThePythonOneLinerPutsEveryLineInTheShardImgfetchTakesItIn() throws {
        let (list, lines) = try mixedList()
        let expected = try pythonShards(of: list, count: 3)
        XCTAssertEqual(Set(expected.keys), Set(lines))

        var taken: [String: Int] = [:]
        for index in 0..<3 {
            let result = try worker("w\(index)", ["prefetch", "--json", "--shard", "\(index)/3", list])
            for object in try jsonObjects(result.stdout) {
                let line = try XCTUnwrap(object["url"] as? String, "\(object)")
                if let previous = taken[line] { XCTAssertEqual(previous, index, "\(line) went to two shards") }
                taken[line] = index
            }
            let ownsBadLine = expected["not a url é"] == index
            XCTAssertEqual(result.status, ownsBadLine ? 1 : 0, "shard \(index): \(result.stderr)")
            XCTAssertEqual(result.stderr.contains("not a url"), ownsBadLine, "only the owner reports the bad line: \(result.stderr)")
        }
        XCTAssertEqual(taken, expected, "imgfetch and the one-liner agree on every line")
        XCTAssertEqual(try originRequests(), 24, "the repeated line went to one shard, which loaded it once")
    }

    func testShardAutoFromSlurmAndKubernetesAndTheShardVariableEqualTheExplicitShard() throws {
        let list = try writeList(distinctURLs(30))
        func urls(_ arguments: [String], _ environment: [String: String]) throws -> [String] {
            let result = try imgfetch(["prefetch", "--json", "--cache-only"] + arguments + [list], environment: environment)
            XCTAssertEqual(result.stderr.contains("--shard"), false, result.stderr)
            return try jsonObjects(result.stdout).compactMap { $0["url"] as? String }.sorted()
        }
        let explicit = try urls(["--shard", "2/4"], [:])
        XCTAssertFalse(explicit.isEmpty)
        XCTAssertEqual(try urls(["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"]), explicit)
        XCTAssertEqual(try urls(["--shard", "auto"], ["JOB_COMPLETION_INDEX": "2", "IMGFETCH_SHARD_COUNT": "4"]), explicit)
        XCTAssertEqual(try urls([], ["IMGFETCH_SHARD": "2/4"]), explicit)
        XCTAssertEqual(try urls([], ["IMGFETCH_SHARD": "auto", "JOB_COMPLETION_INDEX": "2", "IMGFETCH_SHARD_COUNT": "4"]), explicit)
        XCTAssertEqual(try urls(["--shard", "2/4"], ["IMGFETCH_SHARD": "0/4"]), explicit, "the flag wins over the variable")
    }

    func testShardAutoWithoutAnEngineAndABadShardVariableExitTwo() throws {
        let list = try writeList(distinctURLs(2))
        let noEngine = try imgfetch(["prefetch", "--shard", "auto", list])
        XCTAssertEqual(noEngine.status, 2, noEngine.stderr)
        XCTAssertTrue(noEngine.stderr.contains("found no job engine"), noEngine.stderr)
        let half = try imgfetch(["prefetch", "--shard", "auto", list], environment: ["JOB_COMPLETION_INDEX": "1"])
        XCTAssertEqual(half.status, 2, half.stderr)
        XCTAssertTrue(half.stderr.contains("IMGFETCH_SHARD_COUNT"), half.stderr)
        let bad = try imgfetch(["prefetch", list], environment: ["IMGFETCH_SHARD": "4/4"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("IMGFETCH_SHARD '4/4'"), bad.stderr)
        XCTAssertEqual(try originRequests(), 0)
    }

    func testAShardThatTookNoURLExitsZero() throws {
        // One URL: among 8 shards, 7 take nothing.
        let list = try writeList(distinctURLs(1))
        var statuses: [Int32] = []
        for index in 0..<8 {
            let result = try worker("w\(index)", ["prefetch", "--shard", "\(index)/8", list])
            statuses.append(result.status)
            XCTAssertTrue(result.stderr.contains("shard \(index)/8 took "), result.stderr)
        }
        XCTAssertEqual(statuses, Array(repeating: 0, count: 8))
        XCTAssertEqual(try originRequests(), 1)
    }
}
