import Foundation
import XCTest
import TestSupport

/// The manual and the completions come from the option declarations; these catch drift.
final class ManPageTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testCommittedManPageMatchesTheDeclarations() throws {
        let directory = try TemporaryDirectory(prefix: "imgfetch-man")
        let fresh = directory.path("imgfetch.1")
        let script = Self.root.appendingPathComponent("scripts/man").path
        let result = try Shell.run("\(Shell.quote(script)) --binary \(Shell.quote(Imgfetch.binary.path)) --output \(Shell.quote(fresh.path))")
        XCTAssertEqual(result.status, 0, result.stderr)

        // The date line is the only one allowed to differ.
        func body(_ url: URL) throws -> [String] {
            try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix(".Dd ") }.map(String.init)
        }
        let committed = try body(Self.root.appendingPathComponent("man/imgfetch.1"))
        let generated = try body(fresh)
        if committed != generated {
            let index = zip(committed, generated).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(committed.count, generated.count)
            let old = index < committed.count ? committed[index] : "(end)"
            let new = index < generated.count ? generated[index] : "(end)"
            XCTFail("man/imgfetch.1 is out of date (line \(index + 1): \(old.debugDescription) vs \(new.debugDescription)); run scripts/man and commit the result")
        }
    }

    func testManPageDocumentsEveryFlagEnvironmentVariableAndExitCode() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("man/imgfetch.1"), encoding: .utf8)
        for flag in ["-cache-dir", "-refresh", "-cache-only", "-no-disk-cache", "-retry-failed", "-max-age", "-timeout",
                     "-header", "-user", "-insecure", "-cacert", "-max-bytes", "-max-pixels", "-retry", "-verify",
                     "-ignore-query", "-ignore-param", "-jobs", "-json", "-output", "-older-than", "-fix"] {
            XCTAssertTrue(page.contains("Fl \(flag)"), "the man page lacks --\(flag.dropFirst())")
        }
        for variable in ["IMGFETCH_CACHE_DIR", "XDG_CACHE_HOME", "NO_COLOR"] {
            XCTAssertTrue(page.contains(".It Ev \(variable)"), "the man page lacks \(variable)")
        }
        for code in Array(0...8) + [130, 141, 143] {
            XCTAssertTrue(page.contains(".It \(code)\n"), "the man page lacks exit status \(code)")
        }
        XCTAssertTrue(page.contains("Default: 15"), "defaults are documented")
    }

    func testManPageRendersWithoutWarnings() throws {
        let page = Self.root.appendingPathComponent("man/imgfetch.1").path
        let result = try Shell.run("command -v groff >/dev/null || exit 0; groff -mandoc -Tutf8 -ww -z \(Shell.quote(page))")
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
    }
}

final class CompletionTests: XCTestCase {
    private func script(for shell: String) throws -> String {
        let result = try Imgfetch.run(["--generate-completion-script", shell])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    func testBashCompletionIsGeneratedAndParses() throws {
        let text = try script(for: "bash")
        XCTAssertTrue(text.contains("prefetch"))
        XCTAssertTrue(text.contains("--cache-only"))
        let directory = try TemporaryDirectory(prefix: "imgfetch-completion")
        let file = try directory.write(Data(text.utf8), to: "imgfetch.bash")
        let check = try Shell.run("bash -n \(Shell.quote(file.path))")
        XCTAssertEqual(check.status, 0, check.stderr)
    }

    func testZshCompletionIsGenerated() throws {
        let text = try script(for: "zsh")
        XCTAssertTrue(text.hasPrefix("#compdef imgfetch"), String(text.prefix(80)))
        XCTAssertTrue(text.contains("--retry-failed"))
    }

    func testFishCompletionIsGenerated() throws {
        let text = try script(for: "fish")
        XCTAssertTrue(text.contains("complete -c 'imgfetch'"))
        XCTAssertTrue(text.contains("ignore-query"))
    }
}
