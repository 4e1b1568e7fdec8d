/// A circuit breaker for one direction of the remote tier (reads or writes), as sccache and
/// service meshes keep one: closed, it lets every request through and counts consecutive
/// failures; after `threshold` of them (or at once, for a tier that cannot be reached) it opens
/// and lets none through for `coolDown`; then it half-opens and lets one request through to test
/// the tier, closing again if that one succeeds and opening for another cool-down if not.
///
/// A value: the owner keeps it under its lock and passes the time in, so tests can drive it.
struct RemoteBreaker: Sendable {
    /// Consecutive failures that open a closed breaker.
    static let threshold = 5

    let coolDown: Duration
    private(set) var state = State.closed(failures: 0)

    enum State: Sendable, Equatable {
        case closed(failures: Int)
        case open(until: ContinuousClock.Instant)
        /// The test request is in flight; no other goes through until it ends.
        case halfOpen
    }

    /// What the breaker lets a request do.
    enum Admission: Sendable, Equatable {
        case pass
        /// The one request that tests an open breaker's tier after its cool-down.
        case test
        case refuse
    }

    /// How a result changed the breaker, for the `-v` line and the counts.
    enum Change: Sendable, Equatable {
        case opened
        case reclosed
    }

    init(coolDown: Duration) {
        self.coolDown = coolDown
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    mutating func admit(at now: ContinuousClock.Instant) -> Admission {
        switch state {
        case .closed: return .pass
        case .halfOpen: return .refuse
        case .open(let until):
            guard now >= until else { return .refuse }
            state = .halfOpen
            return .test
        }
    }

    mutating func recordSuccess() -> Change? {
        defer { state = .closed(failures: 0) }
        return state == .halfOpen ? .reclosed : nil
    }

    /// - Parameter opensAtOnce: the failure says every request would fail the same way now
    ///   (the tier cannot be reached), so waiting for `threshold` of them only costs time.
    mutating func recordFailure(at now: ContinuousClock.Instant, opensAtOnce: Bool = false) -> Change? {
        switch state {
        case .closed(let failures):
            guard opensAtOnce || failures + 1 >= Self.threshold else {
                state = .closed(failures: failures + 1)
                return nil
            }
            state = .open(until: now + coolDown)
            return .opened
        case .halfOpen:
            state = .open(until: now + coolDown)
            return .opened
        case .open:
            return nil  // a request let through before it opened
        }
    }
}
