import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImageFetchKit

/// A fresh temporary directory, a test server serving it, and a downloader whose scheduling
/// events the test can wait on.
class DownloadTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var server: TestServer!
    var events: EventLog!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        server = try TestServer.start(root: directory.url)
        events = EventLog()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        directory = nil
    }

    func makeDownloader(_ configuration: DownloaderConfiguration = DownloaderConfiguration()) -> Downloader {
        let events = self.events!
        return Downloader(configuration: configuration) { events.record($0) }
    }

    /// Writes `count` bytes of a repeating pattern to `name` in the served directory.
    @discardableResult
    func serveFile(_ name: String, bytes count: Int) throws -> Data {
        // A prime-length pattern, appended in slices: building it byte by byte is slow in debug builds.
        let pattern = Data((0..<251).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        var data = Data(capacity: count)
        while data.count < count { data.append(pattern.prefix(count - data.count)) }
        try directory.write(data, to: name)
        return data
    }

    func request(_ path: String, _ query: [String: String] = [:], options: DownloadRequest.Options = .init()) -> DownloadRequest {
        DownloadRequest(url: server.url(path, query), options: options)
    }

    /// Waits for `task`, a load whose caller was cancelled: it must end with a `.cancelled` error.
    func assertCancelled(
        _ task: Task<DownloadResponse, Error>, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        do {
            _ = try await task.value
            XCTFail(message, file: file, line: line)
        } catch let error as DownloadError {
            XCTAssertEqual(error.kind, .cancelled, file: file, line: line)
        }
    }

    /// The error `load` throws, failing the test if it succeeds instead.
    func loadError(_ downloader: Downloader, _ request: DownloadRequest, file: StaticString = #filePath, line: UInt = #line) async -> DownloadError? {
        do {
            let response = try await downloader.load(request)
            XCTFail("expected an error, got status \(response.statusCode) with \(response.body.count) bytes", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual(error.url, request.url, "the error names the URL", file: file, line: line)
            return error
        }
    }
}

/// The scheduling events of a downloader, and a way to wait until they reach a state.
final class EventLog: Sendable {
    private struct State {
        var events: [DownloadEvent] = []
        var waiters: [(id: Int, predicate: @Sendable ([DownloadEvent]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiter = 0
    }
    private let state = Mutex(State())

    var all: [DownloadEvent] { state.withLock { $0.events } }

    func record(_ event: DownloadEvent) {
        let ready = state.withLock { state in
            state.events.append(event)
            let events = state.events
            let ready = state.waiters.filter { $0.predicate(events) }.map(\.continuation)
            state.waiters.removeAll { $0.predicate(events) }
            return ready
        }
        for continuation in ready { continuation.resume() }  // outside the lock
    }

    /// Returns once `predicate` holds for the events so far, or fails the test after `timeout`
    /// (so an event that never comes fails one test instead of hanging the suite).
    func wait(
        until predicate: @escaping @Sendable ([DownloadEvent]) -> Bool, timeout: Duration = .seconds(20),
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        await withCheckedContinuation { continuation in
            let id: Int? = state.withLock { state in
                if predicate(state.events) { return nil }
                state.nextWaiter += 1
                state.waiters.append((state.nextWaiter, predicate, continuation))
                return state.nextWaiter
            }
            guard let id else { return continuation.resume() }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.state.withLock { state -> (CheckedContinuation<Void, Never>, [DownloadEvent])? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return (state.waiters.remove(at: index).continuation, state.events)
                }
                guard let (continuation, events) = expired else { return }
                XCTFail("timed out after \(timeout) waiting for download events; saw \(events)", file: file, line: line)
                continuation.resume()
            }
        }
    }

    /// Returns once `count` events match `matching`.
    func wait(for count: Int, _ matching: @escaping @Sendable (DownloadEvent) -> Bool) async {
        await wait { events in events.filter(matching).count >= count }
    }
}
