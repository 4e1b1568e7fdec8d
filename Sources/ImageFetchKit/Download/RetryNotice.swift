/// What a transfer that failed for a transient reason does next: wait, then try again.
public struct RetryNotice: Sendable, Equatable {
    /// The attempt about to be made (2 for the first retry), and the most there will be.
    public var attempt: Int
    public var attempts: Int
    /// How long the transfer waits first (the backoff, or the server's Retry-After).
    public var wait: Duration
    /// Why the attempt before failed: a sentence naming the URL.
    public var reason: String

    public init(attempt: Int, attempts: Int, wait: Duration, reason: String) {
        self.attempt = attempt
        self.attempts = attempts
        self.wait = wait
        self.reason = reason
    }
}
