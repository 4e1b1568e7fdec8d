import Synchronization

/// Which requests the tier gets, decided from how it has been answering: a breaker per
/// direction (`RemoteBreaker`), so failing writes never stop reads; a refused upload (HTTP 401
/// or 403) making the run read-only; a tier slower than the origin skipped for reads
/// (`RemoteSpeedRule`). Each decision comes back as a `RemoteTierEvent` for the `-v` line and is
/// counted in the report.
///
/// Thread safety: every method may be called from any task at once; events are returned, never
/// announced under the lock.
final class RemoteTierHealth: Sendable {
    private let state: Mutex<State>

    private struct State {
        var reads: RemoteBreaker
        var writes: RemoteBreaker
        var speed: RemoteSpeedRule
        var readOnlyReason: String?
        var counts = RemoteCacheReport.Health()

        /// Counts a failure against `direction`'s breaker; the `paused` event (counted, with its
        /// reason) when that opened it.
        mutating func recordFailure(
            _ direction: RemoteTierEvent.Direction, _ failure: RemoteFailure, at now: ContinuousClock.Instant, opensAtOnce: Bool
        ) -> RemoteTierEvent? {
            switch direction {
            case .reads:
                guard reads.recordFailure(at: now, opensAtOnce: opensAtOnce) == .opened else { return nil }
                counts.readPauses += 1
                counts.readPauseReason = failure.reason
            case .writes:
                guard writes.recordFailure(at: now, opensAtOnce: opensAtOnce) == .opened else { return nil }
                counts.writePauses += 1
                counts.writePauseReason = failure.reason
            }
            return .paused(direction, reason: failure.reason)
        }
    }

    /// How one read may go.
    struct ReadPass: Sendable {
        var testsBreaker = false
        var testsSpeed = false
    }

    init(coolDown: Duration) {
        state = Mutex(State(reads: RemoteBreaker(coolDown: coolDown), writes: RemoteBreaker(coolDown: coolDown),
                            speed: RemoteSpeedRule(retestAfter: coolDown)))
    }

    var counts: RemoteCacheReport.Health { state.withLock { $0.counts } }

    /// Why a load skips the tier.
    enum Skip: Sendable {
        case paused
        case slow
        /// Sent to the origin to time it, while every read so far found its object.
        case timingOrigin
    }

    /// Whether a load reads from the tier, and how; or why it skips the tier.
    enum ReadAdmission: Sendable {
        case read(ReadPass)
        case skip(Skip)
    }

    /// Whether a load may read from the tier now; else why it skips the tier.
    func admitRead() -> (ReadAdmission, [RemoteTierEvent]) {
        let now = ContinuousClock.now
        return state.withLock { state in
            switch state.reads.admit(at: now) {
            case .refuse:
                state.counts.readsSkippedWhilePaused += 1
                return (.skip(.paused), [])
            case .test:
                // The breaker's test goes whatever the speed rule says: it decides whether reads resume.
                return (.read(ReadPass(testsBreaker: true)), [.testing(.reads)])
            case .pass:
                switch state.speed.decide(at: now) {
                case .read: return (.read(ReadPass()), [])
                case .test: return (.read(ReadPass(testsSpeed: true)), [.testingSpeed])
                case .skipAsSlow:
                    state.counts.readsSkippedAsSlow += 1
                    return (.skip(.slow), [])
                case .timeOrigin:
                    state.counts.readsSkippedAsSlow += 1
                    return (.skip(.timingOrigin), [])
                }
            }
        }
    }

    /// No read has answered `RemoteSpeedRule.suspicion` after the engine was `ready`: loads go
    /// to the origin until one does (`divertsToOrigin`).
    func noAnswerYet(engineReadyAt ready: ContinuousClock.Instant) -> [RemoteTierEvent] {
        state.withLock { state in state.speed.noAnswerYet(engineReadyAt: ready).map { [.speed($0)] } ?? [] }
    }

    /// Whether a load goes to the origin now without waiting for a read slot, counted as a read
    /// skipped for the tier's speed.
    func divertsToOrigin() -> Bool {
        state.withLock { state in
            guard state.speed.divertsToOrigin else { return false }
            state.counts.readsSkippedAsSlow += 1
            return true
        }
    }

    /// A read got an answer (an object or a miss) after `time`; `cold` when it began before the
    /// tier had answered any read (see `RemoteSpeedRule.recordTierRead`).
    func readAnswered(after time: Duration, _ pass: ReadPass, cold: Bool = false, found: Bool = true) -> [RemoteTierEvent] {
        let now = ContinuousClock.now
        return state.withLock { state in
            var events: [RemoteTierEvent] = []
            if state.reads.recordSuccess() == .reclosed { events.append(.resumed(.reads)) }
            if let change = state.speed.recordTierRead(time, wasTest: pass.testsSpeed, cold: cold, found: found, at: now) {
                if case .becameSlow = change { state.counts.timesFoundSlow += 1 }
                events.append(.speed(change))
            }
            return events
        }
    }

    /// A read failed for good (after its retry, if it had one).
    func readFailed(_ failure: RemoteFailure, _ pass: ReadPass) -> [RemoteTierEvent] {
        let now = ContinuousClock.now
        return state.withLock { state in
            var events: [RemoteTierEvent] = []
            if pass.testsSpeed { state.speed.abandonTest(at: now) }
            let atOnce = switch failure.kind {
            case .unreachable, .refused: true
            case .transient, .other: false
            }
            if let event = state.recordFailure(.reads, failure, at: now, opensAtOnce: atOnce) { events.append(event) }
            // An unreachable tier cannot take writes either: no need to learn that again.
            if failure.kind == .unreachable, let event = state.recordFailure(.writes, failure, at: now, opensAtOnce: true) {
                events.append(event)
            }
            return events
        }
    }

    /// Whether an upload may go to the tier now (else it is counted as not uploaded).
    func admitWrite() -> (Bool, [RemoteTierEvent]) {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard state.readOnlyReason == nil else { return (false, []) }
            switch state.writes.admit(at: now) {
            case .pass: return (true, [])
            case .test: return (true, [.testing(.writes)])
            case .refuse: return (false, [])
            }
        }
    }

    /// An upload succeeded after `time`.
    func writeSucceeded(after time: Duration) -> [RemoteTierEvent] {
        state.withLock { state in
            state.speed.recordTierWrite(time)
            return state.writes.recordSuccess() == .reclosed ? [.resumed(.writes)] : []
        }
    }

    /// An upload failed for good (after its retry, if it had one).
    func writeFailed(_ failure: RemoteFailure) -> [RemoteTierEvent] {
        let now = ContinuousClock.now
        return state.withLock { state in
            if case .refused = failure.kind {
                guard state.readOnlyReason == nil else { return [] }
                state.readOnlyReason = failure.reason
                state.counts.readOnlyReason = failure.reason
                return [.readOnly(reason: failure.reason)]
            }
            var events: [RemoteTierEvent] = []
            if let event = state.recordFailure(.writes, failure, at: now, opensAtOnce: failure.kind == .unreachable) {
                events.append(event)
            }
            if failure.kind == .unreachable, let event = state.recordFailure(.reads, failure, at: now, opensAtOnce: true) {
                events.append(event)
            }
            return events
        }
    }

    /// An origin fetch that the tier could not answer took `time`.
    func originFetched(after time: Duration) -> [RemoteTierEvent] {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let change = state.speed.recordOriginFetch(time, at: now) else { return [] }
            if case .becameSlow = change { state.counts.timesFoundSlow += 1 }
            return [.speed(change)]
        }
    }

    /// Whether uploads keep up well enough that a load may wait for room in the backlog: not
    /// while writes are paused or refused, or take far longer than the origin's fetches, nor
    /// while reads skip the tier as too slow (its loads would then wait on it all the same) —
    /// unless the run is `filling` the tier (its reads mostly missed) and its PUTs keep pace with
    /// the origin's fetches (`RemoteSpeedRule.writesKeepPace`): the uploads are then what the
    /// tier is for. Why: four workers filling a loopback tier at once found its 404s slower than
    /// the origin late in their runs (100-155 ms against 14-37 ms) while their PUTs took 14-26 ms
    /// (median) against 22-32 ms for an origin fetch; skipping reads that would have missed
    /// anyway, they also dropped 23-127 uploads each, leaving the fleet's tier short of objects.
    /// A tier ten times slower than the origin took 114 ms a PUT against 17 ms: holding loads
    /// for those made a 1000-image run 25.3 s instead of 1.2 s, so it still drops them.
    func uploadsMayHoldLoads(filling: Bool) -> Bool {
        state.withLock { state in
            state.writes.isClosed && !state.speed.writesAreSlow && state.readOnlyReason == nil
                && (!state.speed.readsSkipTier || (filling && state.speed.writesKeepPace))
        }
    }

    /// The wait before a transient failure's one retry: 50–150 ms when the tier says it is
    /// overloaded (429, 503) or has answered nothing in `direction` yet; else one to three of its
    /// usual times there, 5 to 150 ms. Why: a fixed 50–150 ms held a load twenty answers long for
    /// one 500 from a tier answering in 5 ms, while a tier that says it is overloaded, or one not
    /// yet heard from, still gets the longer wait.
    func retryWait(_ direction: RemoteTierEvent.Direction, throttled: Bool) -> Duration {
        let usual = throttled ? nil : state.withLock { $0.speed.usualTime(direction) }
        guard let usual else { return .milliseconds(Int.random(in: 50...150)) }
        let wait = usual * Double.random(in: 1...3)
        return min(max(wait, .milliseconds(5)), .milliseconds(150))
    }

    func countRetry() {
        state.withLock { $0.counts.retries += 1 }
    }
}
