import Foundation
import FuzzTargets
import XCTest

/// Replays what fuzzing found and kept through the same targets libFuzzer ran: every input under
/// `Tests/Fuzz/regressions/TARGET/` (each one crashed, hung or over-allocated before its fix, and
/// is named for what it found) and the first inputs of each target's corpus (`Tests/Fuzz/corpus/`).
/// A target that crashes takes the test process down, which fails the suite; so does a hang,
/// through the per-input time limit checked here.
final class FuzzRegressionTests: XCTestCase {
    private static let fuzz = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// Inputs replayed per target from its corpus: enough to keep every target exercised on inputs
    /// that reached new code, few enough to keep the suite quick.
    private static let corpusSample = 200
    /// A fuzzing run counts an input taking over a second as a hang; a debug build is slower.
    private static let slowLimit: TimeInterval = 5

    func testEveryTargetHasAName() {
        XCTAssertEqual(Set(FuzzTarget.all.map(\.name)).count, FuzzTarget.all.count)
        for target in FuzzTarget.all { XCTAssertNotNil(FuzzTarget.named(target.name)) }
    }

    func testEverySavedRegressionInputRunsThroughItsTargetQuickly() throws {
        var replayed = 0
        for folder in try subfolders(of: "regressions") {
            let target = try XCTUnwrap(FuzzTarget.named(folder.lastPathComponent), "no target for \(folder.path)")
            for file in try files(in: folder) {
                try replay(file, through: target)
                replayed += 1
            }
        }
        // The folder may legitimately be empty of findings; it must then still exist, so that a
        // finding has an obvious place to go.
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.fuzz.appendingPathComponent("regressions").path))
        print("replayed \(replayed) regression inputs")
    }

    func testEachTargetsCorpusRunsThroughItQuickly() throws {
        for target in FuzzTarget.all {
            let folder = Self.fuzz.appendingPathComponent("corpus").appendingPathComponent(target.name)
            guard FileManager.default.fileExists(atPath: folder.path) else { continue }
            for file in try files(in: folder).prefix(Self.corpusSample) {
                try replay(file, through: target)
            }
        }
    }

    private func replay(_ file: URL, through target: FuzzTarget) throws {
        let data = try Data(contentsOf: file)
        let start = Date()
        target.run(data)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertLessThan(elapsed, Self.slowLimit, "\(target.name) took \(elapsed) s on \(file.path)")
    }

    private func subfolders(of name: String) throws -> [URL] {
        let root = Self.fuzz.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.path < $1.path }
    }

    private func files(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
    }
}
