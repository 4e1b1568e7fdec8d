import Foundation
import XCTest

/// Pillow, the reference the transform tests compare with. Debian's `python3-pil` (installed by
/// `scripts/deps test`) installs it for Debian's /usr/bin/python3, which may not be the `python3`
/// first on PATH (a pyenv one, say).
public enum Pillow {
    /// Runs `script` with `arguments` (in `sys.argv[1...]`) and returns what it writes to stdout.
    /// Throws XCTSkip when no Python with Pillow is installed; fails the test if the script fails.
    public static func run(_ script: String, _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        let result = try python(["-c", script] + arguments)
        XCTAssertEqual(result.status, 0, "the Pillow script failed: \(result.errors)", file: file, line: line)
        return result.output
    }

    /// Runs the Python that has Pillow with `arguments`: its exit status, stdout and stderr.
    /// Throws XCTSkip when there is none.
    public static func python(_ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
        guard let interpreter = interpreterPath else {
            throw XCTSkip("no python3 with Pillow is installed (scripts/deps test installs python3-pil)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a chatty script never blocks on a full pipe.
        nonisolated(unsafe) var errors = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errors = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, output, String(decoding: errors, as: UTF8.self))
    }

    /// Found once per test run: each probe starts a Python.
    private static let interpreterPath: String? = {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] where FileManager.default.isExecutableFile(atPath: candidate) {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: candidate)
            probe.arguments = ["-c", "import PIL.Image, PIL.ImageCms"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { continue }
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return candidate }
        }
        return nil
    }()
}
