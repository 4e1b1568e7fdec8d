import CCurl
import FoundationEssentials

/// One transfer for one or more requesters, owned by the engine thread (never shared).
///
/// It holds the body being received and the libcurl easy handle while running. libcurl calls
/// back into it through an unretained pointer; the engine keeps it alive while the handle runs.
final class Transfer {
    let key: TransferKey
    let client: EngineClient
    var request: DownloadRequest { key.request }
    private(set) var requesters: [Requester]
    var state: State = .queued
    /// The most urgent priority among its requesters so far.
    var priority: DownloadPriority = .low
    /// Attempts started so far: 1 for the first, 2 for the first retry, …
    private(set) var attempt = 0

    private(set) var body = Data()
    private(set) var received: Int64 = 0
    private(set) var expected: Int64?
    /// The streamed body passed `maxBytes`; the write callback stopped the transfer.
    private(set) var exceededLimit = false
    private var sawFirstByte = false
    private var keepsBody = true
    /// Bytes of an error reply's body still to keep (`Options.errorBodyLimit`), and those kept.
    private var errorBodyRoom = 0
    private(set) var errorBody = Data()
    private(set) var headerList: UnsafeMutablePointer<curl_slist>?
    /// The `If-Range` value `headerList` was built with.
    private var headerListIfRange: String?
    /// Where `body` starts in the whole body: 0, or the point this attempt asked to continue from.
    private(set) var bodyOffset: Int64 = 0
    /// The point this attempt asked to continue from, if any (`Range` + `If-Range`).
    private(set) var continuing: Resume.Point?
    /// The validator this attempt's reply can be continued with (see `Resume.validator`).
    private(set) var continuableWith: String?
    /// The reply's `Content-Range` started elsewhere than asked; the write callback stopped it.
    private(set) var rangeMismatch = false
    /// The partial file the body is mirrored into (`Transfer+Checkpoint`), and how much of
    /// `body` it holds.
    var checkpointDescriptor: Int32 = -1
    var checkpointed = 0
    /// The downloader's cookie store (a libcurl share), when it has one; owned by the engine.
    var cookies: UnsafeMutableRawPointer?
    /// The host and port the engine schedules this transfer under (see `Politeness`).
    let host: String
    /// The downloader's rate, when it has one; owned by the engine.
    var rateLimiter: RateLimiter?
    /// The write callback paused the transfer; the engine resumes it when the rate allows.
    var isPaused = false
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    enum State {
        case queued
        case running(easy: UnsafeMutableRawPointer)
        case waitingToRetry(until: ContinuousClock.Instant)
        /// Answered or abandoned; a lazily skipped queue entry.
        case done
    }

    init(key: TransferKey, client: EngineClient, first: Requester) {
        self.key = key
        self.client = client
        self.requesters = [first]
        self.host = key.request.url.hostAndPortForScheduling
        errorBuffer.initialize(to: 0)
    }

    deinit {
        closeCheckpoint()
        imgfetch_curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    var isQueued: Bool {
        if case .queued = state { return true }
        return false
    }

    var easy: UnsafeMutableRawPointer? {
        if case .running(let easy) = state { return easy }
        return nil
    }

    /// Bytes of the body held (those continued from included) and expected.
    var progress: DownloadProgress {
        DownloadProgress(received: keepsBody ? bodyOffset + Int64(body.count) : received, expected: expected)
    }

    func add(_ requester: Requester) {
        requesters.append(requester)
        if sawFirstByte, let report = requester.progress { report(progress) }
    }

    /// Removes and returns the requester with `id`.
    func remove(requesterID id: UInt64) -> Requester? {
        guard let index = requesters.firstIndex(where: { $0.id == id }) else { return nil }
        return requesters.remove(at: index)
    }

    /// Answers every requester with `result` and forgets them.
    func answer(_ result: Result<DownloadResponse, DownloadError>) {
        let waiting = requesters
        requesters = []
        state = .done
        closeCheckpoint()
        body = Data()  // the response holds the bytes now; don't keep a second reference
        for requester in waiting { requester.complete(result) }
    }

    /// Sets up `easy` (fresh or reset) for the next attempt. Returns the first option libcurl
    /// refused, if any.
    func begin(on easy: UnsafeMutableRawPointer) -> CURLcode {
        // A retry continues what the last attempt left; a first attempt what the request names.
        if attempt > 0, let held = partialBody() {
            continuing = Resume.Point(offset: held.end, validator: held.validator)
        } else {
            body = Data()
            bodyOffset = request.resume?.offset ?? 0
            continuing = request.resume
            closeCheckpoint()
        }
        attempt += 1
        // The bytes held stay continuable until a reply replaces them (a 200) or refuses them.
        continuableWith = continuing?.validator
        rangeMismatch = false
        received = 0
        expected = nil
        exceededLimit = false
        isPaused = false
        sawFirstByte = false
        keepsBody = true
        errorBodyRoom = 0
        errorBody = Data()
        errorBuffer[0] = 0
        state = .running(easy: easy)
        if headerList == nil || headerListIfRange != continuing?.validator {
            imgfetch_curl_slist_free_all(headerList)
            headerListIfRange = continuing?.validator
            headerList = makeHeaderList()
        }
        return configure(easy)
    }

    /// What the write callback tells libcurl about a chunk.
    enum Reception {
        case taken
        /// Stop the transfer (the body went over its limit).
        case stop
        /// Hold the chunk: the downloader's rate is spent for now (`RateLimiter`).
        case pause
    }

    /// Takes one chunk of body from libcurl's write callback.
    /// No allocation per chunk: the body's capacity is reserved from Content-Length on the first.
    func receive(_ chunk: UnsafeRawBufferPointer) -> Reception {
        if let rateLimiter, !rateLimiter.take(chunk.count) {
            isPaused = true
            return .pause
        }
        if !sawFirstByte { firstByteArrived() }
        if rangeMismatch { return .stop }
        received += Int64(chunk.count)
        // The whole body counts, bytes continued from included; a discarded error page its own bytes.
        let total = keepsBody ? bodyOffset + Int64(body.count) + Int64(chunk.count) : received
        if let limit = request.options.maxBytes, total > Int64(limit) {
            exceededLimit = true
            return .stop
        }
        guard keepsBody else {
            // Apart from `body`, which may hold a body this transfer is continuing.
            let kept = min(errorBodyRoom, chunk.count)
            if kept > 0 { errorBody.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<kept])) }
            errorBodyRoom -= kept
            return .taken
        }
        body.append(contentsOf: chunk)
        checkpointIfDue()
        for requester in requesters { requester.progress?(progress) }
        return .taken
    }

    private func firstByteArrived() {
        sawFirstByte = true
        guard let easy else { return }
        var status = 0
        imgfetch_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        // Error pages are not kept: only a 2xx body can ever be handed on, and of another the
        // start the request asked for, to explain the error.
        keepsBody = (200...299).contains(status)
        let encoding = header(named: "Content-Encoding", of: easy)
        if keepsBody { takeRangeAnswer(status: status, encoding: encoding, of: easy) }
        errorBodyRoom = keepsBody ? 0 : request.options.errorBodyLimit
        var length: curl_off_t = -1
        imgfetch_easy_getinfo_off(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        // A compressed body's declared length says nothing about the decoded bytes we count.
        if length >= 0, encoding == nil {
            expected = bodyOffset + Int64(body.count) + Int64(length)
            if keepsBody { body.reserveCapacity(body.count + Int(length)) }
        }
    }

    /// Takes the reply to a request that asked to continue (or not): a 206 where asked continues
    /// `body`; a 200 is the whole body again (the image changed, or the server ignores ranges);
    /// a 206 that starts elsewhere stops the transfer (`rangeMismatch`).
    private func takeRangeAnswer(status: Int, encoding: String?, of easy: UnsafeMutableRawPointer) {
        if let continuing, status == 206 {
            let start = header(named: "Content-Range", of: easy).flatMap(Resume.firstBytePosition(ofContentRange:))
            guard start == continuing.offset, encoding == nil else {
                rangeMismatch = true
                return
            }
            // If-Range matched: the validator asked with is the body's.
            continuableWith = continuing.validator
        } else {
            body = Data()
            bodyOffset = 0
            closeCheckpoint()
            continuableWith = Resume.validator(
                etag: header(named: "ETag", of: easy), lastModified: header(named: "Last-Modified", of: easy),
                acceptRanges: header(named: "Accept-Ranges", of: easy), contentEncoding: encoding)
        }
    }

    /// The bytes held that a later request could continue, if there are enough of them.
    func partialBody() -> Resume.PartialBody? {
        guard !rangeMismatch, let continuableWith, bodyOffset + Int64(body.count) >= Int64(Resume.minimumBytes) else { return nil }
        return Resume.PartialBody(offset: bodyOffset, bytes: body, validator: continuableWith)
    }

    private func makeHeaderList() -> UnsafeMutablePointer<curl_slist>? {
        var lines: [String] = []
        if case .put = request.method {
            // A PUT of bytes, not a form. (An empty "Expect:" to skip 100-continue would break
            // SigV4: libcurl 7.88 signs the empty header it then leaves out.)
            lines.append("Content-Type: application/octet-stream")
        } else if case .postForm = request.method {
            lines.append("Content-Type: application/x-www-form-urlencoded")
        } else if !request.headers.keys.contains(where: { $0.lowercased() == "accept" }) {
            lines.append("Accept: \(CodecLibraries.acceptHeader)")
        }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            lines.append("\(name): \(value)")
        }
        if let continuing { lines.append("If-Range: \(continuing.validator)") }
        if let etag = request.validators.etag { lines.append("If-None-Match: \(etag)") }
        if let date = request.validators.lastModified { lines.append("If-Modified-Since: \(date)") }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines { list = imgfetch_curl_slist_append(list, line) }
        return list
    }
}

/// Requests that share a transfer: the same downloader and the same request, whatever their priority.
struct TransferKey: Hashable {
    let client: UInt64
    let request: DownloadRequest

    init(client: UInt64, request: DownloadRequest) {
        var request = request
        request.priority = .normal
        self.client = client
        self.request = request
    }
}

/// Every value of response header `name` in the last response (after redirects), in order.
func headers(named name: String, of easy: UnsafeMutableRawPointer) -> [String] {
    var values: [String] = []
    while let field = headerField(named: name, index: values.count, of: easy), let value = field.value {
        values.append(String(cString: value))
        if values.count >= field.amount { break }
    }
    return values
}

/// The value of response header `name` in the last response (after redirects), if present.
func header(named name: String, of easy: UnsafeMutableRawPointer) -> String? {
    headerField(named: name, index: 0, of: easy)?.value.map { String(cString: $0) }
}

/// The `index`th field named `name` in the last response; its `amount` says how many there are.
private func headerField(named name: String, index: Int, of easy: UnsafeMutableRawPointer) -> curl_header? {
    var found: UnsafeMutablePointer<curl_header>?
    guard imgfetch_curl_easy_header(easy, name, index, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK else { return nil }
    return found?.pointee
}
