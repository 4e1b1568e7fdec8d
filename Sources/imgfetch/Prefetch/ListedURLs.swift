import ImageFetchKit
import Synchronization

/// The URLs of a list that a run takes (its shard's), each remembered with its line number
/// until its result comes back, for the record's `line`.
///
/// Only URLs in flight are kept (the prefetcher reads a few loads ahead), so memory stays flat
/// on a list of any length. A URL listed twice gets its line numbers back in list order.
final class ListedURLs: Sequence, Sendable {
    private let reader: URLListReader
    private let takes: @Sendable (String) -> Bool
    private let inFlight = Mutex<[String: [Int]]>([:])

    init(_ reader: URLListReader, taking takes: @escaping @Sendable (String) -> Bool) {
        self.reader = reader
        self.takes = takes
    }

    /// The line of `url`, whose result has come back: its first line not yet answered.
    func line(ofFinished url: String) -> Int? {
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

        mutating func next() -> String? {
            while let url = lines.next() {
                guard urls.takes(url) else { continue }
                let number = lines.lineNumber
                urls.inFlight.withLock { $0[url, default: []].append(number) }
                return url
            }
            return nil
        }
    }
}
