import ArgumentParser

/// `prefetch --order`: which end of the list is taken first (SDWebImage's FIFO and LIFO
/// execution orders).
enum ListOrder: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// From the start, read as it is consumed.
    case fifo
    /// From the end: the newest lines of a list that grows at its tail come first. The list is
    /// read whole before the first load.
    case lifo
}
