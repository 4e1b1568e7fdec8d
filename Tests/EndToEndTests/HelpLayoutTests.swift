import Foundation
import XCTest

/// `--help` reads on an 80-column terminal: no line runs past it, and the tables' long texts
/// continue on indented lines instead of wrapping back to column 0.
final class HelpLayoutTests: XCTestCase {
    /// Every command path, from the declarations (`--experimental-dump-help`), so a new
    /// subcommand is checked without editing this test.
    private func commandPaths() throws -> [[String]] {
        let dump = try Imgfetch.run(["--experimental-dump-help"])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: dump.stdoutData) as? [String: Any])
        var paths: [[String]] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            paths.append(path)
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String, name != "help" else { continue }
                walk(sub, path + [name])
            }
        }
        walk(try XCTUnwrap(json["command"] as? [String: Any]), [])
        return paths
    }

    func testEveryHelpLineFitsEightyColumnsAndTablesContinueIndented() throws {
        let paths = try commandPaths()
        XCTAssertGreaterThanOrEqual(paths.count, 11, "root, get, prefetch, info, cache and its six subcommands")
        for path in paths {
            let help = try Imgfetch.run(path + ["--help"], environment: ["COLUMNS": "80"])
            XCTAssertEqual(help.status, 0, help.stderr)
            let name = (["imgfetch"] + path).joined(separator: " ")
            var inTable = false
            for line in help.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
                XCTAssertLessThanOrEqual(line.count, 80, "\(name) --help: \(line)")
                // Every line of a `HEADING:` table (ENVIRONMENT, FILES, EXIT STATUS) is indented.
                if line.hasSuffix(":"), line.uppercased() == line, !line.hasPrefix(" ") {
                    inTable = true
                } else if line.isEmpty {
                    inTable = false
                } else if inTable {
                    XCTAssertTrue(line.hasPrefix("  "), "\(name) --help: a table line starts at column 0: \(line)")
                }
            }
        }
    }

    func testExitStatusTableWrapsLongMeaningsUnderTheirColumn() throws {
        let help = try Imgfetch.run(["--help"])

        XCTAssertTrue(help.stdout.contains("  8    A local file or the cache could not be read or written, or a codec\n       library could not be loaded."), help.stdout)
        XCTAssertTrue(help.stdout.contains("  141  Standard output was closed"), help.stdout)
    }
}
