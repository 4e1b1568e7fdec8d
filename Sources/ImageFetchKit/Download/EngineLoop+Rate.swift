import CCurl

/// A downloader's `Politeness.maxBytesPerSecond` on the engine thread: one `RateLimiter` for all
/// its transfers; the write callback pauses a transfer the bucket cannot pay for, and the loop
/// resumes it when it can.
extension EngineLoop {
    /// `client`'s rate bucket, made at its first transfer; nil without a rate.
    func rateLimiter(for client: EngineClient) -> RateLimiter? {
        guard let rate = client.configuration.politeness.maxBytesPerSecond else { return nil }
        if let limiter = rateLimiters[client.id] { return limiter }
        let limiter = RateLimiter(bytesPerSecond: rate)
        rateLimiters[client.id] = limiter
        return limiter
    }

    /// Resumes the transfers the write callback paused whose bucket is out of debt. libcurl
    /// gives the held chunk again inside `curl_easy_pause`, which may pause the transfer again.
    func resumeTransfersTheRateAllows() {
        guard !rateLimiters.isEmpty else { return }
        for transfer in transfers.values where transfer.isPaused {
            guard let easy = transfer.easy, transfer.rateLimiter?.availableAt == nil else { continue }
            transfer.isPaused = false
            _ = imgfetch_curl_easy_pause(easy, CURLPAUSE_CONT)
            libcurlHasWork = true
        }
    }

    /// When the earliest paused transfer may go on.
    func nextRateResume() -> ContinuousClock.Instant? {
        guard !rateLimiters.isEmpty else { return nil }
        var earliest: ContinuousClock.Instant?
        for transfer in transfers.values where transfer.isPaused {
            // Paused after this turn's resumptions, with the bucket already refilled: resume at once.
            let due = transfer.rateLimiter?.availableAt ?? clock.now
            earliest = min(earliest ?? due, due)
        }
        return earliest
    }
}
