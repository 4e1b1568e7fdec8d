import FoundationEssentials
import Glibc

/// A GET of a plain-http URL over imgfetch's own HTTP/1.1 client: the command line's fetches
/// (`get`, `prefetch`), which would otherwise wait for libcurl to load. Connections are kept for
/// the next request to the same server (`PlainConnectionPool`); the blocking waits run on threads
/// kept for them (`ThreadsForBlockingWork`).
///
/// Why a second path: loading libcurl and the thirty-odd libraries it links (OpenSSL, GnuTLS,
/// Kerberos, LDAP, …) takes about 4.5 ms on the benchmark machine, as long as curl's whole run, and
/// no request can start before it ends. `scripts/bench coldstart`, corpus images from nginx on
/// loopback: one 149 KB JPEG into an existing cache, 1.96× curl's time over libcurl (the last full
/// run before this client), 0.74× and 0.86× over it (two full runs, when it took only a one-URL
/// `get`); 10 and 100 images with `-j 8` against `curl --parallel`, 1.40× and 1.16× over libcurl
/// (full run), 0.90× and 0.79× over this client (40 alternating rounds).
///
/// It answers only what it answers as libcurl would, with the same `DownloadError` kinds and, for
/// the detail, libcurl's words: a 200 and its body (of a declared length, or up to the end of the
/// connection); an error status (4xx, 5xx, an unasked-for 304); after the request went out, a
/// connection that breaks, ends early, stalls past the timeout or is cancelled; a body over the
/// size limit. For everything else the fetch goes to libcurl, which makes the request itself:
/// before anything is sent, a name that does not resolve or a connection refused; after, a
/// redirect, another 1xx, 2xx or 3xx status, a chunked or compressed body, a head it does not read
/// plainly.
enum PlainHTTPFetch {
    enum Outcome: Sendable {
        case answered(Result<DownloadResponse, DownloadError>)
        /// libcurl must make this request.
        case handOver
    }

    /// Whether this client may take `request`: a GET of an http URL with no user information,
    /// extra headers, validators, credentials or retries, and no proxy in the environment.
    static func accepts(_ request: DownloadRequest) -> Bool {
        let options = request.options
        guard case .get = request.method, request.url.scheme?.lowercased() == "http",
              request.url.user == nil, request.url.password == nil,
              request.headers.isEmpty, request.validators.isEmpty, options.retry.maxRetries == 0,
              options.credentials == nil, options.signing == nil,
              let host = request.url.host(percentEncoded: true), !host.isEmpty, !host.contains("%")
        else { return false }
        // The variables libcurl reads for an http URL (it ignores HTTP_PROXY on purpose).
        return ["http_proxy", "all_proxy", "ALL_PROXY"].allSatisfy { (ProcessEnvironment.value($0) ?? "").isEmpty }
    }

    /// `fetch` on a thread kept for such work, as its waits block, for a caller in a task.
    static func fetchOnOwnThread(
        _ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?,
        cancellation: PlainConnection.Cancellation
    ) async -> Outcome {
        await withCheckedContinuation { continuation in
            threads.run { continuation.resume(returning: fetch(request, progress: progress, cancellation: cancellation)) }
        }
    }

    private static let threads = ThreadsForBlockingWork(name: "imgfetch.http")

    /// Makes the request and reads the reply, blocking the calling thread until it is answered,
    /// handed over or cancelled. `request` must be one that `accepts` took.
    static func fetch(
        _ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?,
        cancellation: PlainConnection.Cancellation
    ) -> Outcome {
        guard let target = Target(request.url) else { return .handOver }
        let exchange = Exchange(request: request, target: target, progress: progress, cancellation: cancellation)
        let pool = PlainConnectionPool.shared
        // A kept connection the server closed just as the request went out carried nothing to
        // anyone: the request goes again on a new one, as libcurl does.
        if let kept = pool.take(for: target.hostAndPort),
           case .finished(let outcome) = exchange.run(on: kept, reused: true) {
            return outcome
        }
        switch PlainConnection.open(host: target.host, port: target.port, deadline: exchange.nextDeadline(), cancellation: cancellation) {
        case .success(let opened):
            guard case .finished(let outcome) = exchange.run(on: opened, reused: false) else { return .handOver }
            return outcome
        case .failure(.unreachable): return .handOver
        case .failure(.cancelled): return exchange.failure(.cancelled)
        case .failure(.timedOut):
            return exchange.failure(.timeout, "Connection timed out after \((ContinuousClock.now - exchange.start).milliseconds) milliseconds")
        }
    }

    /// One request and its reply on one connection.
    private struct Exchange {
        let request: DownloadRequest
        let target: Target
        let progress: (@Sendable (DownloadProgress) -> Void)?
        let cancellation: PlainConnection.Cancellation
        let start: ContinuousClock.Instant
        let totalDeadline: ContinuousClock.Instant

        init(request: DownloadRequest, target: Target, progress: (@Sendable (DownloadProgress) -> Void)?, cancellation: PlainConnection.Cancellation) {
            self.request = request
            self.target = target
            self.progress = progress
            self.cancellation = cancellation
            let start = ContinuousClock.now
            self.start = start
            totalDeadline = start + (request.options.totalTimeout ?? .seconds(365 * 86_400))
        }

        enum Step {
            case finished(Outcome)
            /// A kept connection was closed before any of the reply came: nothing was answered.
            case staleConnection
        }

        func nextDeadline() -> ContinuousClock.Instant { min(ContinuousClock.now + request.options.timeout, totalDeadline) }

        func failure(_ kind: DownloadError.Kind, _ detail: String? = nil) -> Outcome {
            .answered(.failure(DownloadError(url: request.url, kind: kind, detail: detail)))
        }

        func timedOut(received: Int, expected: Int?) -> Outcome {
            guard ContinuousClock.now < totalDeadline else {
                let milliseconds = (ContinuousClock.now - start).milliseconds
                let of = expected.map { " out of \($0)" } ?? ""
                return failure(.timeout, "Operation timed out after \(milliseconds) milliseconds with \(received)\(of) bytes received")
            }
            let seconds = max(1, (request.options.timeout.milliseconds + 999) / 1000)
            return failure(.timeout, "Operation too slow. Less than 1 bytes/sec transferred the last \(seconds) seconds")
        }

        /// Puts the connection back after an error status whose short body (a remote tier's 404,
        /// say) came whole with the head, so that the next request need not open another. A body
        /// still to come is not waited for: the error is the answer, now.
        private func keepAfterError(_ connection: PlainConnection, head: ResponseHead, bodyBytesInBuffer: Int) {
            guard head.status != 304, head.keepsConnectionOpen, head.count(of: "Transfer-Encoding") == 0,
                  case .bytes(bodyBytesInBuffer) = head.declaredLength
            else { return }
            PlainConnectionPool.shared.putBack(connection, for: target.hostAndPort)
        }

        func run(on connection: PlainConnection, reused: Bool) -> Step {
            let head = "GET \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\nUser-Agent: \(Transfer.userAgent)\r\n"
                + "Accept: \(CodecLibraries.acceptHeader)\r\n\r\n"
            // A request that could not be sent reached no one worth answering for: it goes again.
            guard connection.send(Array(head.utf8), until: nextDeadline(), cancellation: cancellation) else {
                if cancellation.raised.load(ordering: .relaxed) { return .finished(failure(.cancelled)) }
                return reused ? .staleConnection : .finished(.handOver)
            }

            // The head, and whatever part of the body came with it.
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            var filled = 0
            var headLength: Int?
            while headLength == nil {
                if filled == buffer.count {
                    guard buffer.count < ResponseHead.maximumSize else { return .finished(.handOver) }
                    buffer += [UInt8](repeating: 0, count: buffer.count)
                }
                let received = buffer.withUnsafeMutableBytes { bytes in
                    connection.receive(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]), until: nextDeadline(), cancellation: cancellation)
                }
                switch received {
                case .bytes(let count):
                    filled += count
                    headLength = buffer.withUnsafeBytes { ResponseHead.length(in: UnsafeRawBufferPointer(rebasing: $0[..<filled])) }
                case .end where filled == 0 && reused, .failed(ECONNRESET) where filled == 0 && reused:
                    return .staleConnection
                case .end where filled == 0: return .finished(failure(.connectionLost, "Empty reply from server"))
                case .end: return .finished(.handOver)
                case .failed(let error): return .finished(failure(.connectionLost, "Recv failure: \(errnoDescription(error))"))
                case .timedOut: return .finished(timedOut(received: 0, expected: nil))
                case .cancelled: return .finished(failure(.cancelled))
                }
            }
            guard let headLength, let head = buffer.withUnsafeBytes({ ResponseHead(UnsafeRawBufferPointer(rebasing: $0[..<headLength])) })
            else { return .finished(.handOver) }
            // What libcurl makes of these too: no request this client takes is conditional, so a 304 is an error.
            if (400...599).contains(head.status) || head.status == 304 {
                keepAfterError(connection, head: head, bodyBytesInBuffer: filled - headLength)
                return .finished(failure(.http(status: head.status)))
            }
            guard head.status == 200, head.count(of: "Transfer-Encoding") == 0,
                  (head.value(of: "Content-Encoding") ?? "identity").lowercased() == "identity"
            else { return .finished(.handOver) }
            let expected: Int?
            switch head.declaredLength {
            case .none: expected = nil
            case .bytes(let length): expected = length
            case .unreadable: return .finished(.handOver)
            }
            let limit = request.options.maxBytes
            let tooLarge = { (limit: Int) in Step.finished(failure(.tooLarge(limit: limit), "Maximum file size exceeded")) }
            if let limit, let expected, expected > limit { return tooLarge(limit) }

            // A declared length is a claim: no more than 64 MiB is set aside for it before it arrives.
            let body = ReceivedBody(capacity: min(expected ?? 256 * 1024, 64 * 1024 * 1024))
            let remaining = { (expected ?? Int.max) - body.count }
            /// Reports the body's growth; the step to return once it is past the size limit.
            func received() -> Step? {
                progress?(DownloadProgress(received: Int64(body.count), expected: expected.map(Int64.init)))
                guard let limit, body.count > limit else { return nil }
                return tooLarge(limit)
            }
            if filled > headLength {
                buffer.withUnsafeBytes { body.append(UnsafeRawBufferPointer(rebasing: $0[headLength..<min(filled, headLength + remaining())])) }
                if let stop = received() { return stop }
            }
            while remaining() > 0 {
                switch connection.receive(into: body.room(atMost: remaining()), until: nextDeadline(), cancellation: cancellation) {
                case .bytes(let count):
                    body.didReceive(count)
                    if let stop = received() { return stop }
                case .end:
                    if let expected {
                        return .finished(failure(.truncated, "transfer closed with \(expected - body.count) bytes remaining to read"))
                    }
                    return .finished(.answered(.success(PlainHTTPFetch.response(to: request, head: head, body: body.takeData()))))
                case .failed(let error): return .finished(failure(.connectionLost, "Recv failure: \(errnoDescription(error))"))
                case .timedOut: return .finished(timedOut(received: body.count, expected: expected))
                case .cancelled: return .finished(failure(.cancelled))
                }
            }
            // Read to its declared end, and nothing after it yet: the connection can carry the next request.
            if head.keepsConnectionOpen, filled <= headLength + (expected ?? 0) {
                PlainConnectionPool.shared.putBack(connection, for: target.hostAndPort)
            }
            return .finished(.answered(.success(PlainHTTPFetch.response(to: request, head: head, body: body.takeData()))))
        }
    }

    private static func response(to request: DownloadRequest, head: ResponseHead, body: Data) -> DownloadResponse {
        DownloadResponse(
            url: request.url, effectiveURL: request.url, statusCode: head.status, body: body,
            contentType: head.value(of: "Content-Type"), etag: head.value(of: "ETag"),
            lastModified: head.value(of: "Last-Modified"), cacheControl: head.value(of: "Cache-Control"))
    }

    /// Where an http URL's request goes and what its request line and Host field say.
    struct Target {
        /// The name or address to connect to (an IPv6 address without its brackets).
        var host: String
        var port: Int
        /// The authority as the URL spells it, for the Host field.
        var authority: String
        /// The path and query, "/" when the URL has neither.
        var path: String

        /// Names the server: connections are kept, and requests handed over, per host and port.
        var hostAndPort: String { "\(host) \(port)" }

        init?(_ url: URL) {
            let text = url.requestString
            guard let authorityRange = URL.authorityRange(in: text) else { return nil }
            authority = String(text[authorityRange])
            var path = text[authorityRange.upperBound...]
            if let fragment = path.firstIndex(of: "#") { path = path[..<fragment] }
            self.path = path.first == "/" ? String(path) : "/" + path
            guard var host = url.host(percentEncoded: true), !authority.isEmpty, !authority.contains("@") else { return nil }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            self.host = host
            port = url.port ?? 80
            guard (1...65535).contains(port) else { return nil }
        }
    }
}
