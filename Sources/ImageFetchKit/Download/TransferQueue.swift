/// The waiting line of one downloader: a lane per priority, each served first-in-first-out or
/// last-in-first-out, plus the count of running transfers against the concurrency limit.
///
/// Entries are removed lazily: `next(where:)` skips entries the caller says are no longer wanted,
/// so cancelling a queued transfer costs nothing here.
struct TransferQueue<Element> {
    let configuration: DownloaderConfiguration
    private(set) var running = 0
    private var lanes: [Lane]

    init(configuration: DownloaderConfiguration) {
        self.configuration = configuration
        lanes = Array(repeating: Lane(), count: DownloadPriority.allCases.count)
    }

    var hasFreeSlot: Bool { running < configuration.maxConcurrentDownloads }
    var isIdle: Bool { running == 0 && lanes.allSatisfy(\.isEmpty) }

    mutating func enqueue(_ element: Element, priority: DownloadPriority) {
        lanes[priority.rawValue].items.append(element)
    }

    /// Takes the next element to start: highest priority first, then by the configured order,
    /// skipping elements for which `isWanted` is false.
    mutating func next(where isWanted: (Element) -> Bool) -> Element? {
        for priority in DownloadPriority.allCases.reversed() {
            while let element = lanes[priority.rawValue].take(order: configuration.order) {
                if isWanted(element) { return element }
            }
        }
        return nil
    }

    mutating func didStart() { running += 1 }
    mutating func didStop() { running -= 1 }

    private struct Lane {
        /// Taken slots are emptied at once, so the queue never keeps a started transfer (and its body) alive.
        var items: [Element?] = []
        var head = 0

        var isEmpty: Bool { head == items.count }

        mutating func take(order: DownloaderConfiguration.Order) -> Element? {
            guard !isEmpty else { return nil }
            let element: Element?
            switch order {
            case .fifo:
                element = items[head].take()
                head += 1
            case .lifo:
                element = items.removeLast()
            }
            if isEmpty {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024 && head * 2 >= items.count {
                items.removeFirst(head)  // keep a long FIFO from growing without bound
                head = 0
            }
            return element
        }
    }
}
