import Foundation
import XCTest

/// One running `cache-hammer` process (the test tool beside the test bundle), whose stdout lines
/// the test can wait for, and whose stdin it can write to.
final class CacheHammer: @unchecked Sendable {
    static var binary: URL { Bundle.main.bundleURL.appendingPathComponent("cache-hammer") }

    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var lines: [String] = []
    private var ended = false

    init(_ arguments: [String]) throws {
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let reader = Thread { [self] in readLines() }
        reader.start()
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits (on the reader's signal, not a sleep) until a stdout line satisfies `matches`, and
    /// returns it; fails the test after `timeout` seconds or if the process ends first.
    @discardableResult
    func waitForLine(timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line, _ matches: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = lines.first(where: matches) { return found }
            if ended || !condition.wait(until: deadline) {
                XCTFail("cache-hammer \(process.arguments ?? []) printed no matching line; it printed \(lines)", file: file, line: line)
                return nil
            }
        }
    }

    /// Every line printed so far.
    var printed: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func kill() {
        Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the process to exit, and for the reader to take in everything it printed (the
    /// last line can still be in the pipe when the process is gone), and returns its status.
    @discardableResult
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        condition.lock()
        while !ended { condition.wait() }
        condition.unlock()
        return process.terminationStatus
    }

    private func readLines() {
        let handle = output.fileHandleForReading
        var pending = Data()
        while true {
            let chunk = handle.availableData
            condition.lock()
            if chunk.isEmpty {
                ended = true
                condition.broadcast()
                condition.unlock()
                return
            }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// The number of lock requests blocked on `lockFile` right now, as the kernel lists them in
/// /proc/locks ("->" lines): how a test knows a waiter really waits, without sleeping.
func blockedLockWaiters(on lockFile: String) -> Int {
    var info = stat()
    guard stat(lockFile, &info) == 0, let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return 0 }
    let inode = ":\(info.st_ino) "
    return table.split(separator: "\n").filter { $0.contains("->") && $0.contains(inode) }.count
}

/// Polls `condition` (a kernel-visible state such as blocked lock waiters) every millisecond until
/// it holds; fails the test after `timeout`.
func waitUntil(timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line, _ description: String, _ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { return XCTFail("timed out waiting until \(description)", file: file, line: line) }
        usleep(1000)
    }
}
