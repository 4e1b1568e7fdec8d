/// A downloader's whole-run receive rate (`Politeness.maxBytesPerSecond`), as a token bucket the
/// write callback draws on: a chunk is taken while the bucket is not in debt (one chunk, at most
/// libcurl's 128 KiB read, may overdraw it), else the transfer pauses until the debt is paid.
///
/// Why not libcurl's own `CURLOPT_MAX_RECV_SPEED_LARGE`: it is per transfer, and libcurl paces
/// between its reads, so a body already in the socket's buffers (on loopback, or any body
/// smaller than the TCP window) is read whole at full speed; a paused transfer leaves the bytes
/// to the kernel and the sender. Engine thread only.
final class RateLimiter {
    let bytesPerSecond: Double
    private var tokens: Double = 0
    private var last: ContinuousClock.Instant
    private let clock = ContinuousClock()

    init(bytesPerSecond: Int) {
        self.bytesPerSecond = Double(max(1, bytesPerSecond))
        last = clock.now
    }

    /// At most a quarter second's worth saved up while idle, so a pause is not followed by a burst.
    private var capacity: Double { max(bytesPerSecond / 4, 1024) }

    private func refill() {
        let now = clock.now
        let elapsed = Double((now - last).components.attoseconds) / 1e18 + Double((now - last).components.seconds)
        tokens = min(capacity, tokens + elapsed * bytesPerSecond)
        last = now
    }

    /// Whether a chunk of `count` bytes may be taken now (then it is counted).
    func take(_ count: Int) -> Bool {
        refill()
        guard tokens >= 0 else { return false }
        tokens -= Double(count)
        return true
    }

    /// When the bucket is out of debt again; nil when it is now.
    var availableAt: ContinuousClock.Instant? {
        refill()
        guard tokens < 0 else { return nil }
        return last + .nanoseconds(Int64((-tokens / bytesPerSecond * 1e9).rounded(.up)))
    }
}
