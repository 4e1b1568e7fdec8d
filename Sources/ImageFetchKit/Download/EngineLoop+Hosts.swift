import CCurl
import FoundationEssentials

/// What a downloader's `Politeness` asks of the engine thread: transfers started host by host
/// (a limit per host, a wait between starts), and its rate shared out among its transfers.
///
/// A transfer whose host cannot take it yet is parked, not put back in the queue, so the queue
/// goes on to other hosts: a list of many hosts keeps every other host busy while one waits.
/// Parked transfers start first, in the order they were taken, as soon as their host allows.
extension EngineLoop {
    struct HostSchedule {
        var running: [String: Int] = [:]
        var lastStart: [String: ContinuousClock.Instant] = [:]
        var parked: [Transfer] = []
    }

    /// Fills `clientID`'s free slots with transfers whose hosts allow them, parked ones first.
    func startTransfersHostsAllow(of clientID: UInt64, _ politeness: Politeness) {
        var schedule = hostSchedules[clientID] ?? HostSchedule()
        // A parked transfer cancelled meanwhile is no longer queued: it drops out here.
        schedule.parked.removeAll { !$0.isQueued }
        hostSchedules[clientID] = schedule
        var index = 0
        while index < (hostSchedules[clientID]?.parked.count ?? 0), hasFreeSlot(clientID) {
            let transfer = hostSchedules[clientID]!.parked[index]
            if allows(transfer.host, in: clientID, politeness) {
                hostSchedules[clientID]!.parked.remove(at: index)
                start(transfer)
            } else {
                index += 1
            }
        }
        while hasFreeSlot(clientID), let transfer = nextQueued(clientID) {
            if allows(transfer.host, in: clientID, politeness) {
                start(transfer)
            } else {
                hostSchedules[clientID, default: HostSchedule()].parked.append(transfer)
            }
        }
    }

    private func allows(_ host: String, in clientID: UInt64, _ politeness: Politeness) -> Bool {
        guard let schedule = hostSchedules[clientID] else { return true }
        if let limit = politeness.maxPerHost, schedule.running[host, default: 0] >= limit { return false }
        if let wait = politeness.waitBetweenRequests, let last = schedule.lastStart[host], clock.now - last < wait {
            return false
        }
        return true
    }

    func hostStarted(_ transfer: Transfer) {
        guard transfer.client.configuration.politeness.schedulesHosts else { return }
        hostSchedules[transfer.client.id, default: HostSchedule()].running[transfer.host, default: 0] += 1
        hostSchedules[transfer.client.id]!.lastStart[transfer.host] = clock.now
    }

    func hostStopped(_ transfer: Transfer) {
        guard transfer.client.configuration.politeness.schedulesHosts,
              let running = hostSchedules[transfer.client.id]?.running[transfer.host] else { return }
        hostSchedules[transfer.client.id]!.running[transfer.host] = running > 1 ? running - 1 : nil
    }

    /// When the earliest wait of a parked transfer's host ends, so the engine wakes for it.
    func nextHostWaitEnds() -> ContinuousClock.Instant? {
        var earliest: ContinuousClock.Instant?
        for (clientID, schedule) in hostSchedules where !schedule.parked.isEmpty {
            guard let wait = schedule.parked.first?.client.configuration.politeness.waitBetweenRequests else { continue }
            for transfer in schedule.parked {
                // A host whose wait is over waits for a running transfer to end instead, which wakes the engine.
                guard let last = hostSchedules[clientID]?.lastStart[transfer.host], last + wait > clock.now else { continue }
                earliest = min(earliest ?? last + wait, last + wait)
            }
        }
        return earliest
    }

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

    // MARK: Cookies

    /// `client`'s cookie store, made at its first transfer with the cookie file read into it (if
    /// the file exists); nil without a cookie file.
    func cookieShare(for client: EngineClient) -> UnsafeMutableRawPointer? {
        guard let file = client.configuration.cookieFile else { return nil }
        if let share = cookieShares[client.id] { return share }
        guard let share = imgfetch_curl_share_init() else { return nil }
        _ = imgfetch_curl_share_share(share, CURL_LOCK_DATA_COOKIE)
        if FileManager.default.fileExists(atPath: file), let reader = imgfetch_curl_easy_init() {
            // RELOAD reads the files named by COOKIEFILE now, into the share, not at a transfer.
            _ = imgfetch_easy_setopt_pointer(reader, CURLOPT_SHARE, share)
            _ = imgfetch_easy_setopt_string(reader, CURLOPT_COOKIEFILE, file)
            _ = imgfetch_easy_setopt_string(reader, CURLOPT_COOKIELIST, "RELOAD")
            imgfetch_curl_easy_cleanup(reader)
        }
        cookieShares[client.id] = share
        return share
    }

    /// The cookies `clientID`'s store holds, as Netscape cookie file lines.
    func cookieLines(of clientID: UInt64) -> [String] {
        guard let share = cookieShares[clientID], let reader = imgfetch_curl_easy_init() else { return [] }
        defer { imgfetch_curl_easy_cleanup(reader) }
        _ = imgfetch_easy_setopt_pointer(reader, CURLOPT_SHARE, share)
        var list: UnsafeMutablePointer<curl_slist>?
        guard imgfetch_easy_getinfo_slist(reader, CURLINFO_COOKIELIST, &list) == CURLE_OK else { return [] }
        defer { imgfetch_curl_slist_free_all(list) }
        var lines: [String] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            node = current.pointee.next
        }
        return lines
    }
}
