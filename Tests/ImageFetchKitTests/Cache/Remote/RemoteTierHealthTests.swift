@testable import ImageFetchKit
import XCTest

/// The health rules' state machines, driven with explicit instants.
final class RemoteTierHealthTests: XCTestCase {
    private let start = ContinuousClock.now

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
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<4 { XCTAssertNil(rule.recordOriginFetch(.milliseconds(10), at: start)) }
        for _ in 0..<3 { XCTAssertNil(rule.recordTierRead(.milliseconds(900), wasTest: false, at: start)) }
        XCTAssertEqual(rule.recordTierRead(.milliseconds(900), wasTest: false, at: start),
                       .becameSlow(tier: .milliseconds(900), origin: .milliseconds(10)))
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

    func testTwoFastServersAreNeverCalledSlowNorABusyTierWithinFourTimesTheOrigin() {
        for (tier, origin) in [(15, 2), (60, 15), (90, 10), (150, 40)] {
            var rule = RemoteSpeedRule(retestAfter: .seconds(5))
            for _ in 0..<8 {
                XCTAssertNil(rule.recordOriginFetch(.milliseconds(origin), at: start))
                XCTAssertNil(rule.recordTierRead(.milliseconds(tier), wasTest: false, at: start), "\(tier) against \(origin)")
            }
            XCTAssertEqual(rule.decide(at: start), .read)
        }
    }

    func testASlowTierWithNoOriginFetchesToCompareSendsTheNextLoadsToTheOrigin() {
        var rule = RemoteSpeedRule(retestAfter: .seconds(5))
        for _ in 0..<3 { XCTAssertNil(rule.recordTierRead(.milliseconds(400), wasTest: false, at: start)) }
        XCTAssertEqual(rule.recordTierRead(.milliseconds(400), wasTest: false, at: start), .timingOrigin(tier: .milliseconds(400)))
        for _ in 0..<4 { XCTAssertEqual(rule.decide(at: start), .timeOrigin) }
        XCTAssertEqual(rule.decide(at: start), .read)
        for _ in 0..<3 { XCTAssertNil(rule.recordOriginFetch(.milliseconds(5), at: start)) }
        XCTAssertEqual(rule.recordOriginFetch(.milliseconds(5), at: start), .becameSlow(tier: .milliseconds(400), origin: .milliseconds(5)))
    }
}
