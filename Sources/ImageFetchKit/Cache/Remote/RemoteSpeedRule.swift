/// Whether reading from the tier is worth it: its recent read times against the origin's. A tier
/// that takes longer per object than the origin does only delays the loads that wait on it, so
/// reads skip it (they go straight to the origin) and, every `retestAfter`, one read tests it
/// again; reads resume once such a test is no slower than the origin.
///
/// With no recent origin fetches to compare against (every load a tier hit) and reads slower
/// than `suspicion`, the next loads skip the tier to time the origin. A tier answering within
/// `floor` is never called slow: between two fast servers the difference is noise.
///
/// A value: the owner keeps it under its lock and passes the time in.
struct RemoteSpeedRule: Sendable {
    static let minimumSamples = 4
    static let floor = Duration.milliseconds(20)
    static let suspicion = Duration.milliseconds(50)

    let retestAfter: Duration
    private var tier = LatencyWindow()
    private var origin = LatencyWindow()
    /// Set while reads skip the tier: when the next test may go.
    private(set) var skippingUntil: ContinuousClock.Instant?
    private var testInFlight = false
    private var originTimingsWanted = 0

    enum Decision: Sendable, Equatable {
        case read
        /// The read that tests a slow tier again.
        case test
        case skipAsSlow
        /// Skip the tier to time the origin.
        case timeOrigin
    }

    enum Change: Sendable, Equatable {
        case becameSlow(tier: Duration, origin: Duration)
        case fastAgain(tier: Duration, origin: Duration)
        case stillSlow(tier: Duration, origin: Duration)
        case timingOrigin(tier: Duration)
    }

    init(retestAfter: Duration) {
        self.retestAfter = retestAfter
    }

    mutating func decide(at now: ContinuousClock.Instant) -> Decision {
        if let until = skippingUntil {
            guard !testInFlight, now >= until else { return .skipAsSlow }
            testInFlight = true
            return .test
        }
        guard originTimingsWanted == 0 else {
            originTimingsWanted -= 1
            return .timeOrigin
        }
        return .read
    }

    /// A read (hit or miss) took `time`; `wasTest` when `decide` answered `.test` for it.
    mutating func recordTierRead(_ time: Duration, wasTest: Bool, at now: ContinuousClock.Instant) -> Change? {
        guard wasTest else {
            tier.add(time)
            return evaluate(at: now)
        }
        testInFlight = false
        let originMean = origin.mean ?? .zero
        guard time <= max(originMean, Self.floor) else {
            skippingUntil = now + retestAfter
            return .stillSlow(tier: time, origin: originMean)
        }
        skippingUntil = nil
        tier = LatencyWindow()
        tier.add(time)
        return .fastAgain(tier: time, origin: originMean)
    }

    /// A test read failed: the breaker deals with the failure; the next test comes later.
    mutating func abandonTest(at now: ContinuousClock.Instant) {
        guard testInFlight else { return }
        testInFlight = false
        skippingUntil = now + retestAfter
    }

    /// An origin fetch (after a tier miss, or instead of the tier) took `time`.
    mutating func recordOriginFetch(_ time: Duration, at now: ContinuousClock.Instant) -> Change? {
        origin.add(time)
        return evaluate(at: now)
    }

    private mutating func evaluate(at now: ContinuousClock.Instant) -> Change? {
        guard skippingUntil == nil, tier.count >= Self.minimumSamples, let tierMean = tier.mean else { return nil }
        if origin.count >= Self.minimumSamples, let originMean = origin.mean {
            guard tierMean > max(originMean, Self.floor) else { return nil }
            skippingUntil = now + retestAfter
            return .becameSlow(tier: tierMean, origin: originMean)
        }
        guard tierMean >= Self.suspicion, originTimingsWanted == 0 else { return nil }
        originTimingsWanted = Self.minimumSamples - origin.count
        return .timingOrigin(tier: tierMean)
    }
}

/// The last few durations of one kind of request, and their mean.
struct LatencyWindow: Sendable {
    static let size = 16
    private var samples: [Duration] = []
    private var next = 0

    var count: Int { samples.count }

    var mean: Duration? {
        samples.isEmpty ? nil : samples.reduce(.zero, +) / samples.count
    }

    mutating func add(_ time: Duration) {
        if samples.count < Self.size {
            samples.append(time)
        } else {
            samples[next] = time
            next = (next + 1) % Self.size
        }
    }
}
