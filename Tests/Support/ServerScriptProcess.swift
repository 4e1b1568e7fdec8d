import Foundation
import Synchronization

/// One of the Python servers in `Tests/Server` that print "NAME PORT" (or "NAME PORT NAME PORT")
/// once they listen and serve until their stdin closes (so none outlives the test process):
/// started, its ports read, stopped.
final class ServerScriptProcess: Sendable {
    /// The ports its first line names, in order.
    let ports: [Int]
    var port: Int { ports[0] }
    private let running: Mutex<(process: Process, stdin: FileHandle)?>

    /// Starts `Tests/Server/<script>` with `arguments`, whose first line names `portCount` ports;
    /// `what` names it in an error.
    init(script: String, _ arguments: [String], what: String, portCount: Int = 1) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.path(of: script)] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        do { try process.run() } catch { throw TestServer.Failure.couldNotStart("python3 did not run (\(error))") }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        let ports = stride(from: 1, to: words.count, by: 2).compactMap { Int(words[$0]) }
        guard words.count == 2 * portCount, ports.count == portCount else {
            process.terminate()
            throw TestServer.Failure.couldNotStart("\(what) printed \(String(decoding: line, as: UTF8.self).debugDescription)")
        }
        self.ports = ports
        self.running = Mutex((process, stdin.fileHandleForWriting))
    }

    deinit { stop() }

    /// Closes its stdin and waits for it to exit. Safe to call more than once.
    func stop() {
        guard let running = running.withLock({ value in defer { value = nil }; return value }) else { return }
        try? running.stdin.close()
        running.process.waitUntilExit()
    }

    static func path(of script: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Server/\(script)").path
    }
}
