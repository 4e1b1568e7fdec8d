import Foundation

/// Runs the built `imgfetch` binary, the one `swift build` put beside the test bundle.
enum Imgfetch {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
    }

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["IMGFETCH_BIN"] { return URL(fileURLWithPath: path) }
        return Bundle.main.bundleURL.appendingPathComponent("imgfetch")
    }

    /// Runs imgfetch with `arguments`, feeding `stdin` if given, and waits for it to exit.
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        // Read both pipes before waiting so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            stdoutData: outData
        )
    }
}
