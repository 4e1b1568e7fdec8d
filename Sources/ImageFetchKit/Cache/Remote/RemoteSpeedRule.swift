/// Whether reading from the tier is worth it: its recent read times against the origin's (the
/// medians of each). A tier whose reads take more than `slowness` times the origin's fetches,
/// and at least `margin` longer, only delays the loads that wait on it, so reads skip it (they
/// go straight to the origin) and, every `retestAfter`, one read tests it again; reads resume
/// once such a test is not slow. The rule is relative: a tier 90 ms away from workers whose
/// origin answers in 9 ms costs them ten times the origin, however small 90 ms looks (a floor
/// of 100 ms on the tier's time once let it through). The margin is what a ratio of small
/// times needs: on a busy machine a healthy loopback tier's first misses, paying for the
/// engine's start, took 44-54 ms against 7-12 ms for the origin's warm fetches. Such cold
/// reads (begun before the tier had answered any) are not counted at all.
///
/// With no origin fetches to compare against (every read so far a hit) and a median read
/// over `suspicion`, loads skip the tier to time the origin until `minimumSamples` of its
/// fetches are in (once a run: the origin's window then stays filled). That figure decides only
/// whether to spend a few origin requests on a comparison: a loopback tier answered in 5-10 ms
/// a read, 16 at once; a machine loaded several times over its two cores pushed it past 50 ms.
/// Once the tier's median has been under it, the median must stay over it for two windows of
/// new reads first (a stall's reads fill the window until a whole window has passed): a
/// healthy loopback tier's median passed 50 ms for a moment late in 2 of 24 fresh runs (a stall
/// of the machine), and 16 loads went to the origin for nothing.
///
/// Medians that say slow are checked before reads skip the tier: loads go to the origin while
/// one more read times the tier, and only a read that is slow too against the origin's median
/// that raised the check makes the verdict. Why: the tier's window can be older than the
/// origin's. Four workers started at once against a healthy loopback tier timed their first
/// reads in the start-up crowd (51-99 ms) and the origin after it (24 ms): in 4 of 6 rounds one
/// or two of them skipped the tier for the 5 s until a retest, 88-169 origin fetches each of
/// images the tier held. The check costs a tier that is slow one read's time, spent while loads
/// go to the origin.
///
/// A tier that has answered no read at all `suspicion` after the engine was ready (no byte of
/// any, no miss, no failure: `noAnswerYet`) is not waited for: until one of its reads answers,
/// loads go to the origin (timing it), and the first reads that find their objects count though
/// cold, from when the engine was ready, since they are all there is to judge it by (misses do
/// not: the origin answers them anyway, and an S3 tier's first reads, which fetch its
/// credentials, then judged slow, dropped the uploads that fill it; a first miss that slow
/// beside the origin only starts the check, `checkAfterSilence`). Why: reads are held to
/// `-j`, so a fresh worker's first reads of a tier ten times slower than the origin (88 ms a
/// request) held every load for one round trip, then a second (the first reads, cold, were not
/// counted), and the origin sat idle for both: 1000 corpus images in 0.79-0.82 s (three runs,
/// 38-41 objects from the tier) against 0.49-0.60 s from the origin alone (five), on a tmpfs. A
/// healthy loopback tier's first byte came 1-8 ms after the engine was ready (one worker) and at
/// most 29 ms (four workers starting together); the slow one's after 88 ms or more.
///
/// Uploads are timed too: a tier whose PUTs are that slow, and over `writeFloor` each, is one
/// the loads must not wait for (see `RemoteCacheTier.upload`). Uploads keep a floor: they run
/// behind the loads, and a busy nginx took tens of milliseconds for a PUT it kept up with.
///
/// A value: the owner keeps it under its lock and passes the time in.
struct RemoteSpeedRule: Sendable {
    static let minimumSamples = 4
    static let slowness = 4
    static let margin = Duration.milliseconds(50)
    static let writeFloor = Duration.milliseconds(250)
    static let suspicion = Duration.milliseconds(50)

    let retestAfter: Duration
    private var tier = LatencyWindow()
    private var origin = LatencyWindow()
    private var writes = LatencyWindow()
    /// Set while reads skip the tier: when the next test may go.
    private var skippingUntil: ContinuousClock.Instant?
    private var testInFlight = false
    /// The medians said slow: loads go to the origin while one more read checks the verdict
    /// against the origin's median then, or its median when the read answers if that is less.
    /// Why not the later one alone: the loads sent there meanwhile run 16 at once, the check
    /// alone, and timed against those a tier 10 times slower passed as not slow. Why not the
    /// earlier one alone: the origin's first fetches pay for the run's start, and a check begun
    /// on them (26 ms against the 12 ms it took later) passed a 96 ms test read of a tier that
    /// slow, so loads read it for another round trip before a second check skipped it.
    private var checkingAgainst: Duration?
    /// The origin is being timed: loads skip the tier until its fetches fill the window (sending
    /// only `minimumSamples` would leave the others waiting on a slow tier meanwhile), at most
    /// this many more, in case its fetches fail.
    private var originTimingsLeft = 0
    private var timingOrigin = false
    /// Timing the origin was asked for once this run.
    private var timedOrigin = false
    /// A read found no object: the origin is timed by the fetches that follow misses.
    private var sawMiss = false
    /// Set by `noAnswerYet` to when the engine was ready (from which cold hits are timed), and
    /// whether loads still go to the origin for it: until a read answers (`divertsToOrigin`).
    private var answerlessSince: ContinuousClock.Instant?
    private var diverting = false
    /// Reads counted so far, and the count when the median went over `suspicion` after having
    /// been under it: the stretch it has stayed over since.
    private var tierReads = 0
    private var sawQuickMedian = false
    private var overSuspicionSince: Int?

    /// The most loads sent to the origin to time it.
    static let originTimingLoads = 4 * minimumSamples

    enum Decision: Sendable, Equatable {
        case read
        /// The read that tests a slow tier again.
        case test
        case skipAsSlow
        /// Skip the tier to time the origin.
        case timeOrigin
    }

    enum Change: Sendable, Equatable {
        /// The medians said slow; one more read checks it.
        case checking(tier: Duration, origin: Duration)
        case becameSlow(tier: Duration, origin: Duration)
        case fastAgain(tier: Duration, origin: Duration)
        case stillSlow(tier: Duration, origin: Duration)
        case timingOrigin(tier: Duration)
        /// No read answered this long after the engine was ready.
        case noAnswer(after: Duration)
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
        if checkingAgainst != nil {
            guard testInFlight else {
                testInFlight = true
                return .test
            }
            return .timeOrigin
        }
        if divertsToOrigin { return .timeOrigin }
        guard timingOrigin, originTimingsLeft > 0 else { return .read }
        originTimingsLeft -= 1
        return .timeOrigin
    }

    /// A read (hit or miss) took `time`; `wasTest` when `decide` answered `.test` for it; `cold`
    /// when it began before the tier had answered any read: it paid for the engine's start and
    /// new connections (a tier behind a proxy, for the proxy's too), so it is not counted.
    /// `found` is false for a miss: the origin's fetch that follows will be timed anyway, so
    /// loads are never sent to the origin to time it (they would read the objects the tier has).
    mutating func recordTierRead(_ time: Duration, wasTest: Bool, cold: Bool = false, found: Bool = true, at now: ContinuousClock.Instant) -> Change? {
        if !found { sawMiss = true }
        guard wasTest else {
            let endsSilence = diverting
            diverting = false
            if !cold {
                tier.add(time)
                tierReads += 1
            } else if let ready = answerlessSince {
                // Begun before the engine was ready, it is timed from then: the tier's time alone.
                let sinceReady = min(time, now - ready)
                if found {
                    tier.add(sinceReady)
                    tierReads += 1
                } else if endsSilence, let change = checkAfterSilence(sinceReady) {
                    return change
                }
            }
            return evaluate(at: now)
        }
        testInFlight = false
        let wasCheck = checkingAgainst != nil
        let originMean = [checkingAgainst, origin.median].compactMap { $0 }.min() ?? .zero
        checkingAgainst = nil
        guard !Self.isSlow(time, against: originMean) else {
            skippingUntil = now + retestAfter
            return wasCheck ? .becameSlow(tier: time, origin: originMean) : .stillSlow(tier: time, origin: originMean)
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
        guard checkingAgainst == nil else {
            // Nothing confirmed the medians: reads go on, judged afresh from new ones.
            checkingAgainst = nil
            tier = LatencyWindow()
            return
        }
        skippingUntil = now + retestAfter
    }

    /// Whether loads skip the tier's reads for its speed: judged slow, being checked, or sent
    /// to the origin while it has answered no read.
    var readsSkipTier: Bool { judgedOrChecking || divertsToOrigin }

    private var judgedOrChecking: Bool { skippingUntil != nil || checkingAgainst != nil }

    /// No read has answered (see `RemoteCacheTier`'s watch) `suspicion` after the engine was
    /// `ready`: loads go to the origin until one does.
    mutating func noAnswerYet(engineReadyAt ready: ContinuousClock.Instant) -> Change? {
        guard answerlessSince == nil, tier.count == 0, !judgedOrChecking else { return nil }
        answerlessSince = ready
        diverting = true
        return .noAnswer(after: Self.suspicion)
    }

    /// The first answer after the silence was a miss `sinceReady` after the engine was ready. A
    /// miss is not counted (see `noAnswerYet`), but one that slow beside the origin's median
    /// starts the check rather than send the loads back to the tier: ending the diversion alone
    /// made every load left wait one round trip for reads, then the check another (a tier 1 s
    /// slow under ThreadSanitizer: 300 loads in 3.3 s, the origin still busy when the first
    /// misses came back a second in). A tier whose first reads were slow only once (an S3
    /// tier's credentials) passes the check at the cost of one read.
    private mutating func checkAfterSilence(_ sinceReady: Duration) -> Change? {
        guard !judgedOrChecking, origin.count >= Self.minimumSamples, let originMedian = origin.median,
              Self.isSlow(sinceReady, against: originMedian) else { return nil }
        checkingAgainst = originMedian
        return .checking(tier: sinceReady, origin: originMedian)
    }

    /// Loads go to the origin, without waiting for a read slot: the tier answered nothing in
    /// time, and has answered no read since (a failure is the breaker's to count).
    var divertsToOrigin: Bool { diverting && !judgedOrChecking }

    /// An origin fetch (after a tier miss, or instead of the tier) took `time`.
    mutating func recordOriginFetch(_ time: Duration, at now: ContinuousClock.Instant) -> Change? {
        origin.add(time)
        return evaluate(at: now)
    }

    /// The median time of the tier's recent requests in `direction`, if it has answered any.
    func usualTime(_ direction: RemoteTierEvent.Direction) -> Duration? {
        direction == .reads ? tier.median : writes.median
    }

    /// An upload (sealed object and all) took `time`.
    mutating func recordTierWrite(_ time: Duration) {
        writes.add(time)
    }

    /// Whether recent uploads are not slow beside the origin's fetches by the rule reads are
    /// judged by (`isSlow`, medians): for a run filling the tier to keep waiting for its uploads
    /// while reads skip it (`RemoteTierHealth.uploadsMayHoldLoads`). Why not a tighter bound:
    /// when a PUT had to take at most twice an origin transfer, three of four workers filling a
    /// loopback tier at once, whose 404s a busy nginx answered slowly enough to be skipped,
    /// dropped 6, 14 and 80 uploads (one run of `scripts/bench remote`); a tier ten times slower
    /// than the origin took 114 ms a PUT against 17 ms, slow by either rule.
    var writesKeepPace: Bool {
        guard writes.count >= Self.minimumSamples, let writeMedian = writes.median, let originMedian = origin.median else { return false }
        return !Self.isSlow(writeMedian, against: originMedian)
    }

    /// Whether recent uploads took far longer than the origin's fetches.
    var writesAreSlow: Bool {
        guard writes.count >= Self.minimumSamples, let writeMean = writes.mean else { return false }
        return writeMean > Self.writeFloor && Self.isSlow(writeMean, against: origin.mean ?? .zero)
    }

    static func isSlow(_ tier: Duration, against origin: Duration) -> Bool {
        tier > origin * Self.slowness && tier - origin >= Self.margin
    }

    private mutating func evaluate(at now: ContinuousClock.Instant) -> Change? {
        guard skippingUntil == nil, checkingAgainst == nil else { return nil }
        if origin.count >= Self.minimumSamples { timingOrigin = false }
        // Medians: on a busy machine a few reads that waited for a core would otherwise decide.
        if tier.count >= Self.minimumSamples, let tierMean = tier.median, origin.count >= Self.minimumSamples, let originMean = origin.median {
            guard Self.isSlow(tierMean, against: originMean) else { return nil }
            checkingAgainst = originMean
            return .checking(tier: tierMean, origin: originMean)
        }
        guard origin.count < Self.minimumSamples, !sawMiss, tier.count >= Self.minimumSamples, let tierMean = tier.median,
              !timedOrigin else { return nil }
        guard tierMean >= Self.suspicion else {
            sawQuickMedian = true
            overSuspicionSince = nil
            return nil
        }
        if sawQuickMedian {
            let since = overSuspicionSince ?? tierReads
            overSuspicionSince = since
            guard tierReads - since >= 2 * LatencyWindow.size else { return nil }
        }
        timingOrigin = true
        timedOrigin = true
        originTimingsLeft = Self.originTimingLoads
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

    /// The middle sample (the upper of the two middle ones for an even count).
    var median: Duration? {
        samples.isEmpty ? nil : samples.sorted()[samples.count / 2]
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
