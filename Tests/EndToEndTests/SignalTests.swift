import Foundation
import XCTest

/// SIGINT, SIGTERM and SIGHUP during `prefetch`: the run stops, ends its transfers, leaves no
/// temporary file, prints the summary so far and exits 130 or 143.
final class SignalTests: EndToEndTestCase {
    /// A running `imgfetch` whose output is collected in the background.
    private struct Running {
        let process: Process
        let stdout: Data.BackgroundRead
        let stderr: Data.BackgroundRead

        /// Waits for the exit, at most `limit`; returns the status and stderr.
        func finish(within limit: Duration) throws -> (status: Int32, stderr: String, elapsed: Duration) {
            let start = ContinuousClock.now
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            if process.isRunning, exited.wait(timeout: .now() + .milliseconds(Int(limit.components.seconds * 1000))) == .timedOut {
                process.terminate()
                XCTFail("imgfetch did not exit within \(limit)")
            }
            process.waitUntilExit()
            _ = stdout.wait()
            return (process.terminationStatus, String(decoding: stderr.wait(), as: UTF8.self), ContinuousClock.now - start)
        }
    }

    private func start(_ arguments: [String]) throws -> Running {
        let process = Process()
        process.executableURL = Imgfetch.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["IMGFETCH_CACHE_DIR"] = cacheDirectory.path
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, stdout: Data.readingInBackground(out.fileHandleForReading), stderr: Data.readingInBackground(err.fileHandleForReading))
    }

    private func temporaryFiles() -> [String] {
        let files = FileManager.default.enumerator(atPath: cacheDirectory.path)?.allObjects as? [String] ?? []
        return files.filter { $0.hasSuffix(".tmp") }
    }

    /// Two quick URLs, then four that the server holds until released: the signal lands while
    /// those four transfers run.
    private func startHeldRun() async throws -> Running {
        let quick = [url("/gray.png"), url("/alpha.png")]
        let held = (1...4).map { url("/palette.png", ["n": "\($0)", "hold": "h"]) }
        let list = try directory.write(Data((quick + held).joined(separator: "\n").utf8), to: "list.txt")
        let run = try start(["prefetch", "-j", "4", list.path])
        try await server.waitForHeldRequests(4, to: "/palette.png")
        return run
    }

    private func assertStopped(by signal: Int32, exitsWith expected: Int32) async throws {
        let run = try await startHeldRun()

        kill(run.process.processIdentifier, signal)
        let result = try run.finish(within: .seconds(5))

        XCTAssertEqual(result.status, expected, result.stderr)
        XCTAssertLessThan(result.elapsed, .seconds(2), "the run stops within a second or two")
        let summary = try XCTUnwrap(lines(result.stderr).last)
        // The quick ones may or may not have been stored when the signal came; whatever the
        // summary counts is cached, and nothing failed.
        let fetched = try XCTUnwrap(Int(summary.dropFirst("imgfetch: prefetch: ".count).prefix { $0.isNumber }), summary)
        XCTAssertTrue(summary.hasPrefix("imgfetch: prefetch: \(fetched) fetched, 0 already cached, 0 failed; "), summary)
        XCTAssertTrue(summary.hasSuffix("(stopped by a signal)"), summary)
        XCTAssertFalse(result.stderr.contains("was cancelled"), "cancelled transfers are not reported as failures: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("imgfetch: stopping: "), result.stderr)
        let cached = Set(try cachedEntries().map(\.url))
        XCTAssertEqual(cached.count, fetched)
        XCTAssertTrue(cached.isSubset(of: [url("/gray.png"), url("/alpha.png")]), "\(cached)")
        XCTAssertEqual(temporaryFiles(), [])
        try server.release()
    }

    func testSIGINTStopsTheRunPrintsTheSummaryAndExits130() async throws {
        try await assertStopped(by: SIGINT, exitsWith: 130)
    }

    func testSIGTERMStopsTheRunAndExits143() async throws {
        try await assertStopped(by: SIGTERM, exitsWith: 143)
    }

    func testSIGHUPIsTreatedAsSIGTERM() async throws {
        try await assertStopped(by: SIGHUP, exitsWith: 143)
    }

    func testSecondSIGINTExitsAtOnceWithoutWaitingForTheRun() async throws {
        // The list comes from a pipe that stays open: after its one URL the run waits for the
        // next line, and a first SIGINT (which cancels the held transfer) cannot end that wait.
        let process = Process()
        process.executableURL = Imgfetch.binary
        process.arguments = ["prefetch", "-j", "1", "-"]
        process.environment = ProcessInfo.processInfo.environment.merging(["IMGFETCH_CACHE_DIR": cacheDirectory.path]) { _, new in new }
        let input = Pipe(), err = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, FileHandle.nullDevice, err)
        try process.run()
        input.fileHandleForWriting.write(Data((url("/gray.png", ["hold": "h"]) + "\n").utf8))
        try await server.waitForHeldRequests(1, to: "/gray.png")

        kill(process.processIdentifier, SIGINT)
        // Two signals sent at once may reach the process as one: the second goes after the first
        // was acknowledged.
        var stderr = Data()
        while !String(decoding: stderr, as: UTF8.self).contains("signal again to exit at once") {
            let chunk = err.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            stderr += chunk
        }
        kill(process.processIdentifier, SIGINT)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        if process.isRunning, exited.wait(timeout: .now() + 3) == .timedOut {
            process.terminate()
            XCTFail("a second SIGINT did not end the run at once")
        }
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        stderr += err.fileHandleForReading.readDataToEndOfFile()
        let text = String(decoding: stderr, as: UTF8.self)

        XCTAssertEqual(process.terminationStatus, 130, text)
        XCTAssertFalse(text.contains("prefetch:"), "the second signal does not wait for a summary: \(text)")
        XCTAssertEqual(temporaryFiles(), [])
        try server.release()
    }

    func testSignalsDuringStoresNeverLeaveTemporaryFiles() async throws {
        // Many small images, so that stores are running whenever the signal lands.
        let list = (1...300).map { url("/baseline.jpg", ["n": "\($0)"]) }
        let file = try directory.write(Data(list.joined(separator: "\n").utf8), to: "list.txt")
        for (round, after) in [5, 20, 40, 80, 120].enumerated() {
            try? FileManager.default.removeItem(at: cacheDirectory)
            try server.reset()
            let run = try start(["prefetch", "-q", "-j", "8", file.path])
            try await server.waitForRequests(after, to: "/baseline.jpg")
            kill(run.process.processIdentifier, round % 2 == 0 ? SIGTERM : SIGINT)
            let result = try run.finish(within: .seconds(5))

            XCTAssertEqual(result.status, round % 2 == 0 ? 143 : 130, result.stderr)
            XCTAssertEqual(temporaryFiles(), [], "round \(round)")
            let verify = try imgfetch(["cache", "verify"])
            XCTAssertEqual(verify.status, 0, verify.stderr)
            XCTAssertTrue(verify.stderr.contains(" 0 damaged, 0 unindexed files"), verify.stderr)
        }
    }
}
