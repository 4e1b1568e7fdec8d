import CCurl
import FoundationEssentials

/// The engine thread's side of `CurlEngine`: the single owner of the in-flight transfer map,
/// the downloaders' queues and the multi handle. Created on that thread and never leaves it.
final class EngineLoop {
    private let engine: CurlEngine
    let multi: UnsafeMutableRawPointer
    let clock = ContinuousClock()
    /// In-flight transfers by what they fetch, for coalescing.
    private(set) var transfers: [TransferKey: Transfer] = [:]
    private var transfersByRequester: [UInt64: Transfer] = [:]
    private var queues: [UInt64: TransferQueue<Transfer>] = [:]
    private var waitingToRetry: [Transfer] = []
    /// Easy handles kept for reuse: a reset handle is cheaper than a new one.
    private var spareHandles: [UnsafeMutableRawPointer] = []
    /// Per downloader whose `Politeness` schedules hosts: who runs where (see `EngineLoop+Hosts`).
    var hostSchedules: [UInt64: HostSchedule] = [:]
    /// Per downloader with a rate (`Politeness.maxBytesPerSecond`): its bucket.
    var rateLimiters: [UInt64: RateLimiter] = [:]
    /// Per downloader with a cookie file: its cookie store, kept for the process's life.
    var cookieShares: [UInt64: UnsafeMutableRawPointer] = [:]
    /// libcurl has something to act on before the next wait: its sockets had events or a timer of
    /// its is due, transfers just finished, or this turn added a handle or unpaused a transfer.
    var libcurlHasWork = true

    init(engine: CurlEngine) {
        self.engine = engine
        self.multi = engine.multi
    }

    func run() -> Never {
        while true {
            for command in engine.takeCommands() { apply(command) }
            requeueDueRetries()
            resumeTransfersTheRateAllows()
            startQueuedTransfers()
            // A wake for commands alone (an add that only joined the queue, a cancel) gives libcurl
            // nothing to do, and `curl_multi_perform` would poll every running socket once more for
            // nothing: 1000 URLs behind 20 ms took 2,099 calls, 1,789 with this (curl's tool 1,712).
            if libcurlHasWork {
                libcurlHasWork = false
                var running: Int32 = 0
                imgfetch_curl_multi_perform(multi, &running)
                // Finished transfers free slots: fill them before waiting.
                if collectFinishedTransfers() {
                    libcurlHasWork = true
                    continue
                }
            }
            var ready: Int32 = 0
            imgfetch_curl_multi_poll(multi, nil, 0, pollTimeout(), &ready)
            // `ready` counts the transfers' sockets with events, not the wakeup.
            libcurlHasWork = ready > 0 || libcurlTimerIsDue()
        }
    }

    /// Whether one of libcurl's own timers (a timeout, a transfer to run now) has expired.
    private func libcurlTimerIsDue() -> Bool {
        var milliseconds = -1
        return imgfetch_curl_multi_timeout(multi, &milliseconds) != CURLM_OK || milliseconds == 0
    }

    // MARK: Commands

    private func apply(_ command: EngineCommand) {
        switch command {
        case .add(let requester, let client):
            add(requester, for: client)
        case .cancel(let id):
            cancel(requesterID: id)
        case .stop(let clientID):
            let ids = transfersByRequester.filter { $0.value.client.id == clientID }.keys
            for id in ids { cancel(requesterID: id) }
        case .cookies(let clientID, let reply):
            reply(cookieLines(of: clientID))
        }
    }

    private func add(_ requester: Requester, for client: EngineClient) {
        let key = TransferKey(client: client.id, request: requester.request)
        if let transfer = transfers[key] {
            transfer.add(requester)
            transfersByRequester[requester.id] = transfer
            if case .queued = transfer.state, requester.request.priority > transfer.priority {
                // Queue it again in the more urgent lane; the older entry is skipped once it has started.
                enqueue(transfer, priority: requester.request.priority)
            }
            client.observer?(.joined(key.request.url, requesters: transfer.requesters.count))
            return
        }
        let transfer = Transfer(key: key, client: client, first: requester)
        transfers[key] = transfer
        transfersByRequester[requester.id] = transfer
        enqueue(transfer, priority: requester.request.priority)
        client.observer?(.queued(key.request.url))
    }

    private func enqueue(_ transfer: Transfer, priority: DownloadPriority) {
        transfer.priority = priority
        queues[transfer.client.id, default: TransferQueue(configuration: transfer.client.configuration)]
            .enqueue(transfer, priority: priority)
    }

    private func cancel(requesterID id: UInt64) {
        guard let transfer = transfersByRequester.removeValue(forKey: id),
              let requester = transfer.remove(requesterID: id) else { return }
        // The last requester leaving takes what the body has so far, to continue it another time.
        let partial = transfer.requesters.isEmpty ? transfer.partialBody() : nil
        requester.complete(.failure(DownloadError(url: requester.request.url, kind: .cancelled, partial: partial)))
        guard transfer.requesters.isEmpty else { return }
        // The last requester left: stop the transfer wherever it is.
        transfers.removeValue(forKey: transfer.key)
        switch transfer.state {
        case .running(let easy):
            stop(easy, of: transfer)
        case .waitingToRetry:
            waitingToRetry.removeAll { $0 === transfer }
        case .queued, .done:
            break  // a queued entry is skipped when its turn comes
        }
        transfer.state = .done
        transfer.client.observer?(.abandoned(transfer.request.url))
    }

    // MARK: Scheduling

    private func startQueuedTransfers() {
        for clientID in queues.keys {
            let politeness = queues[clientID]!.configuration.politeness
            if politeness.schedulesHosts {
                startTransfersHostsAllow(of: clientID, politeness)
            } else {
                while queues[clientID]!.hasFreeSlot, let transfer = queues[clientID]!.next(where: \.isQueued) {
                    start(transfer)
                }
            }
            if queues[clientID]!.isIdle, hostSchedules[clientID]?.parked.isEmpty ?? true { queues.removeValue(forKey: clientID) }
        }
    }

    /// Whether `client`'s queue has room for one more transfer.
    func hasFreeSlot(_ clientID: UInt64) -> Bool { queues[clientID]?.hasFreeSlot ?? false }

    /// The next queued transfer of `client`, if any.
    func nextQueued(_ clientID: UInt64) -> Transfer? { queues[clientID]?.next(where: \.isQueued) }

    /// Starts `transfer` on a handle; false when it could not start (it was then answered with the error).
    @discardableResult
    func start(_ transfer: Transfer) -> Bool {
        let easy = spareHandles.popLast() ?? imgfetch_curl_easy_init()
        guard let easy else {
            finish(transfer, with: .failure(DownloadError(url: transfer.request.url, kind: .transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue)))))
            return false
        }
        transfer.cookies = cookieShare(for: transfer.client)
        transfer.rateLimiter = rateLimiter(for: transfer.client)
        let refused = transfer.begin(on: easy)
        guard refused == CURLE_OK, imgfetch_curl_multi_add_handle(multi, easy) == CURLM_OK else {
            recycle(easy)
            transfer.state = .done
            let detail = String(cString: imgfetch_curl_easy_strerror(refused))
            finish(transfer, with: .failure(DownloadError(url: transfer.request.url, kind: .transport(code: Int(refused.rawValue)), detail: detail)))
            return false
        }
        libcurlHasWork = true
        queues[transfer.client.id, default: TransferQueue(configuration: transfer.client.configuration)].didStart()
        hostStarted(transfer)
        transfer.client.observer?(.started(transfer.request.url))
        return true
    }

    /// Takes `easy` off the network and gives its slot back.
    private func stop(_ easy: UnsafeMutableRawPointer, of transfer: Transfer) {
        imgfetch_curl_multi_remove_handle(multi, easy)
        recycle(easy)
        queues[transfer.client.id]?.didStop()
        hostStopped(transfer)
    }

    private func recycle(_ easy: UnsafeMutableRawPointer) {
        if spareHandles.count < 64 {
            imgfetch_curl_easy_reset(easy)
            spareHandles.append(easy)
        } else {
            imgfetch_curl_easy_cleanup(easy)
        }
    }

    // MARK: Completion

    /// Answers or reschedules every transfer libcurl reports done. Returns whether there were any.
    private func collectFinishedTransfers() -> Bool {
        var any = false
        var left: Int32 = 0
        while let message = imgfetch_curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            any = true
            let code = message.pointee.data.result
            var context: UnsafeMutableRawPointer?
            imgfetch_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &context)
            guard let context else { continue }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            let (result, retryAfter) = transfer.outcome(of: code, on: easy)
            stop(easy, of: transfer)
            if case .failure(let error) = result, error.isRetryable,
               transfer.attempt <= transfer.request.options.retry.maxRetries {
                let delay = transfer.request.options.retry.delay(beforeRetry: transfer.attempt, retryAfter: retryAfter)
                transfer.state = .waitingToRetry(until: clock.now + delay)
                waitingToRetry.append(transfer)
                transfer.client.observer?(.willRetry(transfer.request.url))
                let notice = RetryNotice(
                    attempt: transfer.attempt + 1, attempts: transfer.request.options.retry.maxRetries + 1,
                    wait: delay, reason: error.description)
                for requester in transfer.requesters {
                    requester.progress?(DownloadProgress(received: 0, expected: nil, retry: notice))
                }
            } else {
                finish(transfer, with: result)
            }
        }
        return any
    }

    private func finish(_ transfer: Transfer, with result: Result<DownloadResponse, DownloadError>) {
        transfers.removeValue(forKey: transfer.key)
        for requester in transfer.requesters { transfersByRequester.removeValue(forKey: requester.id) }
        transfer.answer(result)
        transfer.client.observer?(.finished(transfer.request.url))
    }

    // MARK: Retries and waiting

    private func requeueDueRetries() {
        guard !waitingToRetry.isEmpty else { return }
        let now = clock.now
        waitingToRetry.removeAll { transfer in
            guard case .waitingToRetry(let until) = transfer.state, until <= now else { return false }
            transfer.state = .queued
            enqueue(transfer, priority: transfer.priority)
            return true
        }
    }

    /// How long to wait for sockets at most: until the next retry is due, else a long idle wait
    /// (libcurl shortens it to its own timers; new work wakes the thread at once).
    private func pollTimeout() -> Int32 {
        var timeout: Duration = .seconds(10)
        let now = clock.now
        for transfer in waitingToRetry {
            if case .waitingToRetry(let until) = transfer.state { timeout = min(timeout, until - now) }
        }
        if let due = nextHostWaitEnds() { timeout = min(timeout, due - now) }
        if let due = nextRateResume() { timeout = min(timeout, due - now) }
        return Int32(max(0, timeout.milliseconds))
    }
}
