/// The rows of a GIF frame in the order its data stores them: top to bottom, or for an interlaced
/// frame in four passes (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
struct GIFRowOrder {
    private static let passes: [(start: Int, step: Int)] = [(0, 8), (4, 8), (2, 4), (1, 2)]

    private let height: Int
    private let interlaced: Bool
    private var pass = 0
    private var row = 0

    init(height: Int, interlaced: Bool) {
        self.height = height
        self.interlaced = interlaced
    }

    /// The row the next stored line belongs to; called at most `height` times.
    mutating func next() -> Int {
        guard interlaced else {
            defer { row += 1 }
            return row
        }
        while pass < Self.passes.count, row >= height {
            pass += 1
            row = pass < Self.passes.count ? Self.passes[pass].start : 0
        }
        defer { row += Self.passes[min(pass, Self.passes.count - 1)].step }
        return row
    }
}
