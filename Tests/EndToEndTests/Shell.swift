import Foundation

/// Runs a bash script, for what needs a pipeline or a pseudo-terminal around the binary.
enum Shell {
    static func run(_ script: String, environment: [String: String] = [:]) throws -> Imgfetch.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errData = Data.readingInBackground(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = errData.wait()
        return Imgfetch.Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self), stdoutData: outData)
    }

    /// `text` quoted for bash.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension Data {
    /// Reads `handle` to its end on another thread; `wait()` returns the bytes.
    static func readingInBackground(_ handle: FileHandle) -> BackgroundRead {
        let read = BackgroundRead()
        read.group.enter()
        Thread.detachNewThread {
            read.data = handle.readDataToEndOfFile()
            read.group.leave()
        }
        return read
    }

    final class BackgroundRead: @unchecked Sendable {
        // Written once by the reading thread before `leave()`, read only after `wait()`.
        fileprivate var data = Data()
        fileprivate let group = DispatchGroup()

        func wait() -> Data {
            group.wait()
            return data
        }
    }
}
