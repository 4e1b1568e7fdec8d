/// How often to retry a transfer that failed for a transient reason: a connect failure, a timeout,
/// or HTTP 408, 429, 500, 502, 503, 504 (curl's `--retry`). Permanent failures are never retried.
///
/// The wait before retry *n* is `initialDelay * 2^(n-1)`, capped at `maxDelay`; a `Retry-After`
/// from the server replaces it (also capped at `maxDelay`).
public struct RetryPolicy: Hashable, Sendable {
    /// Retries after the first attempt; 0 means no retries.
    public var maxRetries: Int
    public var initialDelay: Duration
    public var maxDelay: Duration

    public init(maxRetries: Int, initialDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(600)) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// Never retry (the default).
    public static let none = RetryPolicy(maxRetries: 0)

    /// The wait before retry number `retry` (1-based), given the server's `Retry-After` if it sent one.
    public func delay(beforeRetry retry: Int, retryAfter: Duration?) -> Duration {
        if let retryAfter { return min(retryAfter, maxDelay) }
        var delay = initialDelay
        for _ in 1..<max(retry, 1) where delay < maxDelay { delay *= 2 }
        return min(delay, maxDelay)
    }
}
