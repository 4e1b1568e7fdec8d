import ArgumentParser
import TestSupport
import XCTest

/// Checks a command's quick parser against argument-parser: every command line the quick parser
/// reads must mean the same to `Command.parse` (compared through the whole request's description,
/// so a field added later is compared too).
///
/// The lines: every one of up to two arguments from `vocabulary`, then longer ones drawn at
/// random (the same on every run) until `sampled` of them are ones the quick parser reads.
/// argument-parser takes about 20 ms a parse in a debug build, so checking every longer line would
/// take minutes. Returns how many lines the quick parser read, for the caller to check that it
/// read some.
func assertQuickParserAgrees<Command: ParsableCommand, Request>(
    with command: Command.Type, vocabulary: [String], sampled: Int,
    quick: ([String]) -> Request?, full: (Command) -> Request,
    file: StaticString = #filePath, line: UInt = #line
) -> Int {
    var lines: [[String]] = [[]]
    lines += vocabulary.map { [$0] }
    lines += vocabulary.flatMap { first in vocabulary.map { [first, $0] } }
    var generator = SplitMix(seed: 6)
    var drawn = 0
    while drawn < sampled {
        let length = 3 + Int(generator.next() % 4)
        let arguments = (0..<length).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
        if quick(arguments) != nil { drawn += 1 }
        lines.append(arguments)
    }
    var read = 0
    for arguments in lines {
        guard let request = quick(arguments) else { continue }
        read += 1
        do {
            let parsed = try Command.parse(arguments)
            XCTAssertEqual(String(describing: request), String(describing: full(parsed)), "\(arguments)", file: file, line: line)
        } catch {
            XCTFail("read \(arguments) that argument-parser refuses: \(Command.message(for: error))", file: file, line: line)
        }
    }
    return read
}
