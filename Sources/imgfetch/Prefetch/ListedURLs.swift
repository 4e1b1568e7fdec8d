import ImageFetchKit
import Synchronization

/// The URLs of a list that a run takes (its shard's), each remembered with its line number and
/// its position among the URLs taken until its result comes back, for the record's `line` and
/// the `{line}` and `{index}` of names.
///
/// Only URLs in flight are kept (the prefetcher reads a few loads ahead), so memory stays flat
/// on a list of any length. A URL listed twice gets its line numbers back in list order.
final class ListedURLs: Sequence, Sendable {
    private let reader: URLListReader
    private let takes: @Sendable (String) -> Bool
    private let inFlight = Mutex<[String: [Position]]>([:])

    /// Where a URL was: its line in the list, and 1 for the first URL taken.
    struct Position {
        var line: Int
        var index: Int
    }

    init(_ reader: URLListReader, taking takes: @escaping @Sendable (String) -> Bool) {
        self.reader = reader
        self.takes = takes
    }

    /// The position of `url`, whose result has come back: its first not yet answered.
    func position(ofFinished url: String) -> Position? {
        inFlight.withLock { lines in
            guard var waiting = lines[url], !waiting.isEmpty else { return nil }
            let line = waiting.removeFirst()
            lines[url] = waiting.isEmpty ? nil : waiting
            return line
        }
    }

    func makeIterator() -> Iterator { Iterator(urls: self, lines: reader.makeIterator()) }

    struct Iterator: IteratorProtocol {
        let urls: ListedURLs
        var lines: URLListReader.Iterator
        var taken = 0

        mutating func next() -> String? {
            while let url = lines.next() {
                guard urls.takes(url) else { continue }
                taken += 1
                let position = Position(line: lines.lineNumber, index: taken)
                urls.inFlight.withLock { $0[url, default: []].append(position) }
                return url
            }
            return nil
        }
    }
}
