@testable import ImageFetchKit
import XCTest

/// The health rules' state machines, driven with explicit instants.
final class RemoteTierHealthTests: XCTestCase {
    private let start = ContinuousClock.now

    /// A rule whose medians have just said slow: four origin fetches of `origin` ms, then four
    /// reads of `tier` ms, the last of which starts the check.
    private func checkingRule(tier: Int, origin: Int, line: UInt = #line) -> RemoteSpeedRule {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<4 { XCTAssertNil(rule.recordOriginFetch(.milliseconds(origin), at: start), line: line) }
        for _ in 0..<3 { XCTAssertNil(rule.recordTierRead(.milliseconds(tier), wasTest: false, at: start), line: line) }
        XCTAssertEqual(rule.recordTierRead(.milliseconds(tier), wasTest: false, at: start),
                       .checking(tier: .milliseconds(tier), origin: .milliseconds(origin)), "\(tier) against \(origin)", line: line)
        return rule
    }

    func testARetryWaitsOneToThreeOfTheTiersUsualTimesOrLongerWhenItIsThrottled() {
        let health = RemoteTierHealth(coolDown: .seconds(5))
        for _ in 0..<50 {
            let unknown = health.retryWait(.reads, throttled: false)
            XCTAssertTrue((.milliseconds(50)...(.milliseconds(150))).contains(unknown), "no answer yet: \(unknown)")
        }
        for _ in 0..<4 { _ = health.readAnswered(after: .milliseconds(10), RemoteTierHealth.ReadPass()) }
        for _ in 0..<50 {
            let usual = health.retryWait(.reads, throttled: false)
            XCTAssertTrue((.milliseconds(10)...(.milliseconds(30))).contains(usual), "reads answer in 10 ms: \(usual)")
            let throttled = health.retryWait(.reads, throttled: true)
            XCTAssertTrue((.milliseconds(50)...(.milliseconds(150))).contains(throttled), "429 or 503: \(throttled)")
            let writes = health.retryWait(.writes, throttled: false)
            XCTAssertTrue((.milliseconds(50)...(.milliseconds(150))).contains(writes), "no write answered yet: \(writes)")
        }
        for _ in 0..<4 { _ = health.readAnswered(after: .microseconds(500), RemoteTierHealth.ReadPass()) }
        for _ in 0..<4 { _ = health.readAnswered(after: .microseconds(500), RemoteTierHealth.ReadPass()) }
        XCTAssertEqual(health.retryWait(.reads, throttled: false), .milliseconds(5), "never under 5 ms")
    }

    func testAFillWhosePutsKeepPaceGoesOnHoldingLoadsForUploadsWhenReadsAreSlow() {
        let fill = RemoteTierHealth(coolDown: .seconds(5))
        for _ in 0..<4 { _ = fill.originFetched(after: .milliseconds(25)) }
        for _ in 0..<4 { _ = fill.readAnswered(after: .milliseconds(130), RemoteTierHealth.ReadPass(), found: false) }
        guard case .read(let check) = fill.admitRead().0, check.testsSpeed else { return XCTFail("one read checks the medians") }
        _ = fill.readAnswered(after: .milliseconds(125), check, found: false)
        guard case .skip(.slow) = fill.admitRead().0 else { return XCTFail("404s of 130 ms against 25 ms: reads skip the tier") }
        XCTAssertFalse(fill.uploadsMayHoldLoads(filling: true), "no PUT timed yet")
        for _ in 0..<4 { _ = fill.writeSucceeded(after: .milliseconds(20)) }
        XCTAssertTrue(fill.uploadsMayHoldLoads(filling: true), "a tier being filled with PUTs as quick as the origin: its uploads go on")
        XCTAssertFalse(fill.uploadsMayHoldLoads(filling: false), "a tier that holds the objects: re-uploads are dropped")
        for _ in 0..<4 { _ = fill.writeSucceeded(after: .milliseconds(60)) }
        XCTAssertTrue(fill.uploadsMayHoldLoads(filling: true), "PUTs of 60 ms against 25 ms are not slow by the reads' rule: the fill goes on")

        let slow = RemoteTierHealth(coolDown: .seconds(5))
        for _ in 0..<4 { _ = slow.originFetched(after: .milliseconds(17)) }
        for _ in 0..<4 { _ = slow.readAnswered(after: .milliseconds(110), RemoteTierHealth.ReadPass(), found: false) }
        XCTAssertFalse(slow.uploadsMayHoldLoads(filling: false), "while one read checks the medians, loads do not wait for uploads")
        for _ in 0..<4 { _ = slow.writeSucceeded(after: .milliseconds(114)) }
        XCTAssertFalse(slow.uploadsMayHoldLoads(filling: true), "PUTs of 114 ms against 17 ms would hold the run to their pace")
    }

    func testTheBreakerOpensAfterFiveConsecutiveFailuresAndASuccessResetsTheCount() {
        var breaker = RemoteBreaker(coolDown: .seconds(5))
        for _ in 0..<4 { XCTAssertNil(breaker.recordFailure(at: start)) }
        XCTAssertNil(breaker.recordSuccess())
        for _ in 0..<4 { XCTAssertNil(breaker.recordFailure(at: start)) }
        XCTAssertEqual(breaker.admit(at: start), .pass)
        XCTAssertEqual(breaker.recordFailure(at: start), .opened)
        XCTAssertEqual(breaker.admit(at: start + .seconds(4)), .refuse)
    }

    func testAnOpenBreakerLetsOneTestThroughAfterItsCoolDownAndClosesWhenItSucceeds() {
        var breaker = RemoteBreaker(coolDown: .seconds(5))
        XCTAssertEqual(breaker.recordFailure(at: start, opensAtOnce: true), .opened)
        XCTAssertEqual(breaker.admit(at: start + .seconds(5)), .test)
        XCTAssertEqual(breaker.admit(at: start + .seconds(5)), .refuse, "one test at a time")
        XCTAssertEqual(breaker.recordSuccess(), .reclosed)
        XCTAssertEqual(breaker.admit(at: start + .seconds(5)), .pass)
    }

    func testAFailedTestOpensTheBreakerForAnotherCoolDown() {
        var breaker = RemoteBreaker(coolDown: .seconds(5))
        _ = breaker.recordFailure(at: start, opensAtOnce: true)
        XCTAssertEqual(breaker.admit(at: start + .seconds(6)), .test)
        XCTAssertEqual(breaker.recordFailure(at: start + .seconds(7)), .opened)
        XCTAssertEqual(breaker.admit(at: start + .seconds(11)), .refuse)
        XCTAssertEqual(breaker.admit(at: start + .seconds(12)), .test)
    }

    func testReadsSlowerThanTheOriginAreSkippedThenRetested() {
        var rule = checkingRule(tier: 900, origin: 10)
        XCTAssertEqual(rule.decide(at: start), .test, "one read checks the medians")
        XCTAssertEqual(rule.decide(at: start), .timeOrigin, "the other loads go to the origin meanwhile")
        XCTAssertEqual(rule.recordTierRead(.milliseconds(850), wasTest: true, at: start),
                       .becameSlow(tier: .milliseconds(850), origin: .milliseconds(10)))
        XCTAssertEqual(rule.decide(at: start + .seconds(1)), .skipAsSlow)
        XCTAssertEqual(rule.decide(at: start + .seconds(5)), .test)
        XCTAssertEqual(rule.decide(at: start + .seconds(5)), .skipAsSlow, "one test at a time")
        XCTAssertEqual(rule.recordTierRead(.milliseconds(800), wasTest: true, at: start + .seconds(6)),
                       .stillSlow(tier: .milliseconds(800), origin: .milliseconds(10)))
        XCTAssertEqual(rule.decide(at: start + .seconds(11)), .test)
        XCTAssertEqual(rule.recordTierRead(.milliseconds(5), wasTest: true, at: start + .seconds(11)),
                       .fastAgain(tier: .milliseconds(5), origin: .milliseconds(10)))
        XCTAssertEqual(rule.decide(at: start + .seconds(11)), .read)
    }

    func testATierWithinFourTimesTheOriginOrLessThan50MillisecondsSlowerIsNeverCalledSlow() {
        // The last two: a busy machine's healthy loopback tier, its first misses against the
        // origin's warm fetches.
        for (tier, origin) in [(8, 2), (40, 15), (30, 10), (150, 40), (400, 100), (44, 7), (54, 12)] {
            var rule = RemoteSpeedRule(retestAfter: .seconds(5))
            for _ in 0..<8 {
                XCTAssertNil(rule.recordOriginFetch(.milliseconds(origin), at: start))
                XCTAssertNil(rule.recordTierRead(.milliseconds(tier), wasTest: false, at: start), "\(tier) against \(origin)")
            }
            XCTAssertEqual(rule.decide(at: start), .read)
        }
    }

    func testColdReadsAreNotCounted() {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<8 { XCTAssertNil(rule.recordTierRead(.milliseconds(300), wasTest: false, cold: true, at: start)) }
        XCTAssertEqual(rule.decide(at: start), .read, "a first wave that paid for the engine's start does not start the origin's timing")
        for _ in 0..<3 { XCTAssertNil(rule.recordTierRead(.milliseconds(90), wasTest: false, at: start)) }
        XCTAssertEqual(rule.recordTierRead(.milliseconds(90), wasTest: false, at: start), .timingOrigin(tier: .milliseconds(90)))

        var fill = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<4 { XCTAssertNil(fill.recordOriginFetch(.milliseconds(7), at: start)) }
        for _ in 0..<8 { XCTAssertNil(fill.recordTierRead(.milliseconds(300), wasTest: false, cold: true, found: false, at: start)) }
        XCTAssertEqual(fill.decide(at: start), .read, "nor does it make the tier slow")
    }

    func testATierThatAnswersNothingSoonAfterTheStartIsNotWaitedFor() {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        let ready = start
        XCTAssertEqual(rule.noAnswerYet(engineReadyAt: ready), .noAnswer(after: .milliseconds(50)))
        XCTAssertTrue(rule.divertsToOrigin)
        XCTAssertTrue(rule.readsSkipTier, "uploads do not hold loads for it meanwhile")
        for _ in 0..<20 { XCTAssertEqual(rule.decide(at: start + .milliseconds(60)), .timeOrigin, "every load, not 16") }
        XCTAssertNil(rule.noAnswerYet(engineReadyAt: ready), "said once")
        for _ in 0..<4 { XCTAssertNil(rule.recordOriginFetch(.milliseconds(10), at: start + .milliseconds(70))) }
        // The first reads began 8 ms before the engine was ready and answered 98 ms after it:
        // cold, they count, from when the engine was ready.
        let answered = start + .milliseconds(98)
        XCTAssertNil(rule.recordTierRead(.milliseconds(106), wasTest: false, cold: true, at: answered))
        XCTAssertFalse(rule.divertsToOrigin, "a read answered: loads read the tier again")
        for _ in 0..<2 { XCTAssertNil(rule.recordTierRead(.milliseconds(106), wasTest: false, cold: true, at: answered)) }
        XCTAssertEqual(rule.recordTierRead(.milliseconds(106), wasTest: false, cold: true, at: answered),
                       .checking(tier: .milliseconds(98), origin: .milliseconds(10)))

        // A tier being filled: its first reads miss, which the origin answers anyway; they end
        // the diversion but are not counted, slow as they were (an S3 tier's first reads fetch
        // its credentials). The first, slow beside the origin, starts the check: one read
        // times the tier while loads go on to the origin, and a quick one sends them back.
        var filling = RemoteSpeedRule(retestAfter: .seconds(5))
        XCTAssertNotNil(filling.noAnswerYet(engineReadyAt: ready))
        for _ in 0..<4 { XCTAssertNil(filling.recordOriginFetch(.milliseconds(10), at: answered)) }
        XCTAssertEqual(filling.recordTierRead(.milliseconds(283), wasTest: false, cold: true, found: false, at: answered),
                       .checking(tier: .milliseconds(98), origin: .milliseconds(10)))
        for _ in 0..<3 { XCTAssertNil(filling.recordTierRead(.milliseconds(283), wasTest: false, cold: true, found: false, at: answered)) }
        XCTAssertFalse(filling.divertsToOrigin)
        XCTAssertTrue(filling.readsSkipTier)
        XCTAssertEqual(filling.decide(at: answered), .test)
        XCTAssertEqual(filling.decide(at: answered), .timeOrigin, "one read checks, the other loads go to the origin")
        XCTAssertEqual(filling.recordTierRead(.milliseconds(9), wasTest: true, found: false, at: answered + .milliseconds(9)),
                       .fastAgain(tier: .milliseconds(9), origin: .milliseconds(10)))
        XCTAssertFalse(filling.readsSkipTier)
        XCTAssertEqual(filling.decide(at: answered), .read)

        // A tier a second slow: the check confirms it, and loads skip it without waiting on a
        // second round of reads.
        var slow = RemoteSpeedRule(retestAfter: .seconds(5))
        XCTAssertNotNil(slow.noAnswerYet(engineReadyAt: ready))
        for _ in 0..<4 { XCTAssertNil(slow.recordOriginFetch(.milliseconds(6), at: ready + .milliseconds(100))) }
        let second = ready + .milliseconds(1030)
        XCTAssertEqual(slow.recordTierRead(.milliseconds(1040), wasTest: false, cold: true, found: false, at: second),
                       .checking(tier: .milliseconds(1030), origin: .milliseconds(6)))
        XCTAssertEqual(slow.decide(at: second), .test)
        XCTAssertEqual(slow.recordTierRead(.milliseconds(1020), wasTest: true, found: false, at: second + .milliseconds(1020)),
                       .becameSlow(tier: .milliseconds(1020), origin: .milliseconds(6)))
        XCTAssertEqual(slow.decide(at: second + .milliseconds(1030)), .skipAsSlow)

        // A miss no slower than the origin's fetches just ends the diversion.
        var quick = RemoteSpeedRule(retestAfter: .seconds(5))
        XCTAssertNotNil(quick.noAnswerYet(engineReadyAt: ready))
        for _ in 0..<4 { XCTAssertNil(quick.recordOriginFetch(.milliseconds(40), at: answered)) }
        XCTAssertNil(quick.recordTierRead(.milliseconds(120), wasTest: false, cold: true, found: false, at: answered))
        XCTAssertFalse(quick.readsSkipTier)
        XCTAssertEqual(quick.decide(at: answered), .read)

        var answering = RemoteSpeedRule(retestAfter: .seconds(5))
        XCTAssertNil(answering.recordTierRead(.milliseconds(5), wasTest: false, at: start))
        XCTAssertNil(answering.noAnswerYet(engineReadyAt: start), "a tier that has answered is not answerless")
        XCTAssertFalse(answering.divertsToOrigin)

        let health = RemoteTierHealth(coolDown: .seconds(5))
        XCTAssertFalse(health.divertsToOrigin())
        XCTAssertEqual(health.noAnswerYet(engineReadyAt: start), [.speed(.noAnswer(after: .milliseconds(50)))])
        XCTAssertTrue(health.divertsToOrigin())
        XCTAssertEqual(health.counts.readsSkippedAsSlow, 1, "a diverted load is counted as one that skipped the tier")
    }

    func testACheckBegunOnTheOriginsFirstFetchesJudgesByItsQuickerLaterOnes() {
        // The bench's 10x-slow tier: the origin's first fetches paid for the run's start (26 ms),
        // the ones during the check took 12 ms, the test read 96 ms.
        var rule = checkingRule(tier: 121, origin: 26)
        XCTAssertEqual(rule.decide(at: start), .test)
        for _ in 0..<12 { XCTAssertNil(rule.recordOriginFetch(.milliseconds(12), at: start)) }
        XCTAssertEqual(rule.recordTierRead(.milliseconds(96), wasTest: true, at: start),
                       .becameSlow(tier: .milliseconds(96), origin: .milliseconds(12)))

        // Nor does a slower origin during the check (16 loads at once) pass a slow tier.
        var crowded = checkingRule(tier: 90, origin: 9)
        XCTAssertEqual(crowded.decide(at: start), .test)
        for _ in 0..<12 { XCTAssertNil(crowded.recordOriginFetch(.milliseconds(40), at: start)) }
        XCTAssertEqual(crowded.recordTierRead(.milliseconds(90), wasTest: true, at: start),
                       .becameSlow(tier: .milliseconds(90), origin: .milliseconds(9)))
    }

    func testAFewReadsThatWaitedForACoreDoNotMakeTheTierSlow() {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<8 { XCTAssertNil(rule.recordOriginFetch(.milliseconds(10), at: start)) }
        for _ in 0..<6 { XCTAssertNil(rule.recordTierRead(.milliseconds(12), wasTest: false, at: start)) }
        // Their mean (141 ms) is over 4 times the origin's; their median (12 ms) is not.
        for _ in 0..<3 { XCTAssertNil(rule.recordTierRead(.milliseconds(400), wasTest: false, at: start)) }
        XCTAssertEqual(rule.decide(at: start), .read)
    }

    func testATierTenTimesSlowerThanTheOriginIsSkippedHoweverFewMillisecondsThatIs() {
        // The bench's case: a 90 ms tier in front of a 9 ms origin (an absolute floor of 100 ms
        // once let it through).
        for (tier, origin) in [(90, 9), (70, 2), (300, 30)] {
            var rule = checkingRule(tier: tier, origin: origin)
            XCTAssertEqual(rule.decide(at: start), .test)
            XCTAssertEqual(rule.recordTierRead(.milliseconds(tier), wasTest: true, at: start),
                           .becameSlow(tier: .milliseconds(tier), origin: .milliseconds(origin)), "\(tier) against \(origin)")
            XCTAssertEqual(rule.decide(at: start), .skipAsSlow)
        }
    }

    func testASlowTierWithNoOriginFetchesToCompareSendsLoadsToTheOriginUntilItIsTimed() {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<3 { XCTAssertNil(rule.recordTierRead(.milliseconds(90), wasTest: false, at: start)) }
        XCTAssertEqual(rule.recordTierRead(.milliseconds(90), wasTest: false, at: start), .timingOrigin(tier: .milliseconds(90)))
        // Every load that comes while the origin is timed goes there, not only the first four.
        for _ in 0..<6 { XCTAssertEqual(rule.decide(at: start), .timeOrigin) }
        for _ in 0..<3 { XCTAssertNil(rule.recordOriginFetch(.milliseconds(9), at: start)) }
        XCTAssertEqual(rule.recordOriginFetch(.milliseconds(9), at: start), .checking(tier: .milliseconds(90), origin: .milliseconds(9)))
        XCTAssertEqual(rule.decide(at: start), .test)
        XCTAssertEqual(rule.recordTierRead(.milliseconds(95), wasTest: true, at: start), .becameSlow(tier: .milliseconds(95), origin: .milliseconds(9)))
        XCTAssertEqual(rule.decide(at: start), .skipAsSlow)
    }

    func testMediansThatSaySlowAreCheckedByOneMoreReadAgainstTheOrigin() {
        // Four workers started at once: their first reads timed in the start-up crowd, the
        // origin after it.
        var herd = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<4 { _ = herd.recordTierRead(.milliseconds(99), wasTest: false, at: start) }
        for _ in 0..<4 { _ = herd.recordOriginFetch(.milliseconds(24), at: start) }
        XCTAssertEqual(herd.decide(at: start), .test)
        for _ in 0..<3 {
            XCTAssertEqual(herd.decide(at: start), .timeOrigin, "one check at a time; the others go to the origin")
            XCTAssertTrue(herd.readsSkipTier)
        }
        XCTAssertNil(herd.recordTierRead(.milliseconds(90), wasTest: false, at: start), "a read begun before the check does not decide")
        // The loads sent to the origin meanwhile, all at once, take longer: the check compares
        // with the origin's median that raised it.
        for _ in 0..<8 { XCTAssertNil(herd.recordOriginFetch(.milliseconds(60), at: start)) }
        XCTAssertEqual(herd.recordTierRead(.milliseconds(30), wasTest: true, at: start),
                       .fastAgain(tier: .milliseconds(30), origin: .milliseconds(24)))
        XCTAssertEqual(herd.decide(at: start), .read)
        XCTAssertFalse(herd.readsSkipTier)
        for _ in 0..<2 { XCTAssertNil(herd.recordTierRead(.milliseconds(99), wasTest: false, at: start)) }
        XCTAssertEqual(herd.decide(at: start), .read, "the stale medians went with the check")

        // A tier ten times slower: the loads sent to the origin during the check, sixteen at
        // once, took 40 ms against the 9 ms of its timing; the check read is still slow.
        var slow = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<4 { _ = slow.recordOriginFetch(.milliseconds(9), at: start) }
        for _ in 0..<4 { _ = slow.recordTierRead(.milliseconds(100), wasTest: false, at: start) }
        XCTAssertEqual(slow.decide(at: start), .test)
        for _ in 0..<12 { XCTAssertNil(slow.recordOriginFetch(.milliseconds(40), at: start)) }
        XCTAssertEqual(slow.recordTierRead(.milliseconds(110), wasTest: true, at: start),
                       .becameSlow(tier: .milliseconds(110), origin: .milliseconds(9)))

        // A check that fails decides nothing: reads go on, judged by new medians.
        var failed = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<4 { _ = failed.recordOriginFetch(.milliseconds(10), at: start) }
        for _ in 0..<4 { _ = failed.recordTierRead(.milliseconds(200), wasTest: false, at: start) }
        XCTAssertEqual(failed.decide(at: start), .test)
        failed.abandonTest(at: start)
        XCTAssertEqual(failed.decide(at: start), .read)
        XCTAssertFalse(failed.readsSkipTier)
    }

    func testTimingTheOriginEndsWhenItIsTimedOrAfterAFewLoadsAndHappensOnceARun() {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<4 { _ = rule.recordTierRead(.milliseconds(60), wasTest: false, at: start) }
        // The origin's fetches never come back (they fail): the timing gives up after a few loads.
        for _ in 0..<RemoteSpeedRule.originTimingLoads { XCTAssertEqual(rule.decide(at: start), .timeOrigin) }
        XCTAssertEqual(rule.decide(at: start), .read)
        for _ in 0..<8 { XCTAssertNil(rule.recordTierRead(.milliseconds(60), wasTest: false, at: start)) }
        XCTAssertEqual(rule.decide(at: start), .read, "asked once a run")

        var fast = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<4 { _ = fast.recordTierRead(.milliseconds(60), wasTest: false, at: start) }
        for _ in 0..<4 { XCTAssertNil(fast.recordOriginFetch(.milliseconds(40), at: start)) }
        XCTAssertEqual(fast.decide(at: start), .read, "a tier within four times the origin is read again once it is timed")
    }

    func testAfterAMissTheOriginIsTimedByItsOwnFetchesNotByLoadsSentThere() {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        XCTAssertNil(rule.recordTierRead(.milliseconds(90), wasTest: false, found: false, at: start))
        for _ in 0..<7 { XCTAssertNil(rule.recordTierRead(.milliseconds(90), wasTest: false, at: start)) }
        XCTAssertEqual(rule.decide(at: start), .read)
    }

    func testAMomentOfSlowReadsAfterQuickOnesDoesNotTimeTheOriginButAStretchDoes() {
        var stall = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<16 { XCTAssertNil(stall.recordTierRead(.milliseconds(10), wasTest: false, at: start)) }
        // The machine stalls: the reads in flight all take 80 ms, then it passes.
        for _ in 0..<16 { XCTAssertNil(stall.recordTierRead(.milliseconds(80), wasTest: false, at: start)) }
        for _ in 0..<16 { XCTAssertNil(stall.recordTierRead(.milliseconds(10), wasTest: false, at: start)) }
        XCTAssertEqual(stall.decide(at: start), .read)

        var slowed = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<16 { XCTAssertNil(slowed.recordTierRead(.milliseconds(10), wasTest: false, at: start)) }
        for _ in 0..<39 { XCTAssertNil(slowed.recordTierRead(.milliseconds(80), wasTest: false, at: start)) }
        XCTAssertEqual(slowed.recordTierRead(.milliseconds(80), wasTest: false, at: start), .timingOrigin(tier: .milliseconds(80)),
                       "the median over 50 ms (from the 8th slow read) for two windows of new reads")
    }

    func testAHealthyTierOfHitsIsNeverMadeToTimeTheOrigin() {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<32 { XCTAssertNil(rule.recordTierRead(.milliseconds(30), wasTest: false, at: start)) }
        XCTAssertEqual(rule.decide(at: start), .read)
    }
}
