/// One decision the tier's health rules made, for a `-v` line (`description`, no credentials).
enum RemoteTierEvent: Sendable, Equatable, CustomStringConvertible {
    enum Direction: String, Sendable {
        case reads, writes
    }

    case paused(Direction, reason: String)
    /// A paused direction lets one request through to test the tier.
    case testing(Direction)
    case resumed(Direction)
    case readOnly(reason: String)
    /// A transient failure is tried once more.
    case retrying(Direction, reason: String)
    case testingSpeed
    case speed(RemoteSpeedRule.Change)
    /// The uploads a full backlog turned away during the loads go up now, read from the disk cache.
    case sendingUnsent(Int)

    var description: String {
        switch self {
        case .paused(let direction, let reason): "\(direction) paused: \(reason)"
        case .testing(let direction): "\(direction) paused long enough; one request tests the tier"
        case .resumed(let direction): "\(direction) resume: the test request succeeded"
        case .readOnly(let reason): "writes stop for this run (reads go on): \(reason)"
        case .retrying(let direction, let reason): "\(direction == .reads ? "a read" : "an upload") is tried once more: \(reason)"
        case .testingSpeed: "one read tests whether the tier is still slower than the origin"
        case .sendingUnsent(let count):
            "\(count) upload\(count == 1 ? "" : "s") turned away by a full backlog while loads could not wait go up now, read back from the disk cache"
        case .speed(.checking(let tier, let origin)):
            "reads look slow, \(Self.milliseconds(tier)) against \(Self.milliseconds(origin)) from the origin; loads go to the origin while one more read checks"
        case .speed(.becameSlow(let tier, let origin)):
            "reads skip the tier: \(Self.milliseconds(tier)) per read against \(Self.milliseconds(origin)) from the origin"
        case .speed(.stillSlow(let tier, let origin)):
            "reads keep skipping the tier: a test read took \(Self.milliseconds(tier)) against \(Self.milliseconds(origin)) from the origin"
        case .speed(.fastAgain(let tier, let origin)):
            "reads use the tier again: a test read took \(Self.milliseconds(tier)) against \(Self.milliseconds(origin)) from the origin"
        case .speed(.noAnswer(let after)):
            "no read has answered \(Self.milliseconds(after)) after the start; loads go to the origin until one does"
        case .speed(.timingOrigin(let tier)):
            "reads take \(Self.milliseconds(tier)); loads go to the origin to compare, until \(RemoteSpeedRule.minimumSamples) of its fetches are timed"
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
