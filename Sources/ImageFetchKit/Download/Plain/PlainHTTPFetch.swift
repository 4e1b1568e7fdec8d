import FoundationEssentials
import Glibc

/// A GET of a plain-http URL over imgfetch's own HTTP/1.1 client: the one fetch of a one-URL
/// command (`get`), which would otherwise wait for libcurl to load.
///
/// Why a second path: loading libcurl and the thirty-odd libraries it links (OpenSSL, GnuTLS,
/// Kerberos, LDAP, …) takes about 4.5 ms on the benchmark machine, as long as curl's whole run, and
/// a one-URL miss cannot start its request before it ends. `scripts/bench coldstart`, one 149 KB
/// JPEG from nginx on loopback, median of 40, the miss into an existing cache: 1.96× curl's time
/// over libcurl (the last full run before this client), 0.74× and 0.86× over it (two full runs).
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

    /// `fetch` on a thread of its own, as its waits block, for a caller in a task.
    static func fetchOnOwnThread(
        _ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?,
        cancellation: PlainConnection.Cancellation
    ) async -> Outcome {
        await withCheckedContinuation { continuation in
            DetachedThread.start(name: "imgfetch.http") {
                continuation.resume(returning: fetch(request, progress: progress, cancellation: cancellation))
            }
        }
    }

    /// Makes the request and reads the reply, blocking the calling thread until it is answered,
    /// handed over or cancelled. `request` must be one that `accepts` took.
    static func fetch(
        _ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)?,
        cancellation: PlainConnection.Cancellation
    ) -> Outcome {
        let url = request.url
        let options = request.options
        let start = ContinuousClock.now
        let totalDeadline = options.totalTimeout.map { start + $0 } ?? start + .seconds(365 * 86_400)
        func failure(_ kind: DownloadError.Kind, _ detail: String? = nil) -> Outcome {
            .answered(.failure(DownloadError(url: url, kind: kind, detail: detail)))
        }
        func timedOut(received: Int, expected: Int?) -> Outcome {
            guard ContinuousClock.now < totalDeadline else {
                let milliseconds = (ContinuousClock.now - start).milliseconds
                let of = expected.map { " out of \($0)" } ?? ""
                return failure(.timeout, "Operation timed out after \(milliseconds) milliseconds with \(received)\(of) bytes received")
            }
            let seconds = max(1, (options.timeout.milliseconds + 999) / 1000)
            return failure(.timeout, "Operation too slow. Less than 1 bytes/sec transferred the last \(seconds) seconds")
        }
        func nextDeadline() -> ContinuousClock.Instant { min(ContinuousClock.now + options.timeout, totalDeadline) }

        guard let target = Target(url) else { return .handOver }
        let connection: PlainConnection
        switch PlainConnection.open(host: target.host, port: target.port, deadline: nextDeadline(), cancellation: cancellation) {
        case .success(let opened): connection = opened
        case .failure(.unreachable): return .handOver
        case .failure(.cancelled): return failure(.cancelled)
        case .failure(.timedOut):
            return failure(.timeout, "Connection timed out after \((ContinuousClock.now - start).milliseconds) milliseconds")
        }
        let head = "GET \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\nUser-Agent: \(Transfer.userAgent)\r\n"
            + "Accept: \(CodecLibraries.acceptHeader)\r\n\r\n"
        // A request that could not be sent reached no one worth answering for: libcurl tries again.
        guard connection.send(Array(head.utf8), until: nextDeadline(), cancellation: cancellation) else {
            return cancellation.raised.load(ordering: .relaxed) ? failure(.cancelled) : .handOver
        }

        // The head, and whatever part of the body came with it.
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var filled = 0
        var headLength: Int?
        while headLength == nil {
            if filled == buffer.count {
                guard buffer.count < ResponseHead.maximumSize else { return .handOver }
                buffer += [UInt8](repeating: 0, count: buffer.count)
            }
            let received = buffer.withUnsafeMutableBytes { bytes in
                connection.receive(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled...]), until: nextDeadline(), cancellation: cancellation)
            }
            switch received {
            case .bytes(let count):
                filled += count
                headLength = buffer.withUnsafeBytes { ResponseHead.length(in: UnsafeRawBufferPointer(rebasing: $0[..<filled])) }
            case .end where filled == 0: return failure(.connectionLost, "Empty reply from server")
            case .end: return .handOver
            case .failed(let error): return failure(.connectionLost, "Recv failure: \(errnoDescription(error))")
            case .timedOut: return timedOut(received: 0, expected: nil)
            case .cancelled: return failure(.cancelled)
            }
        }
        guard let headLength, let head = buffer.withUnsafeBytes({ ResponseHead(UnsafeRawBufferPointer(rebasing: $0[..<headLength])) })
        else { return .handOver }
        // What libcurl makes of these too: no request this client takes is conditional, so a 304 is an error.
        if (400...599).contains(head.status) || head.status == 304 { return failure(.http(status: head.status)) }
        guard head.status == 200, head.count(of: "Transfer-Encoding") == 0,
              (head.value(of: "Content-Encoding") ?? "identity").lowercased() == "identity",
              head.count(of: "Content-Length") <= 1
        else { return .handOver }
        var expected: Int?
        if let declared = head.value(of: "Content-Length") {
            guard declared.isASCIIDigits, let length = Int(declared) else { return .handOver }
            expected = length
        }
        let limit = options.maxBytes
        if let limit, let expected, expected > limit { return failure(.tooLarge(limit: limit), "Maximum file size exceeded") }

        // A declared length is a claim: no more than 64 MiB is set aside for it before it arrives.
        var body = Data(capacity: min(expected ?? 256 * 1024, 64 * 1024 * 1024))
        func take(_ bytes: UnsafeRawBufferPointer) -> Outcome? {
            let count = min(bytes.count, (expected ?? Int.max) - body.count)
            body.append(contentsOf: bytes[..<count])
            if let limit, body.count > limit { return failure(.tooLarge(limit: limit), "Maximum file size exceeded") }
            progress?(DownloadProgress(received: Int64(body.count), expected: expected.map(Int64.init)))
            return nil
        }
        if filled > headLength, let stop = buffer.withUnsafeBytes({ take(UnsafeRawBufferPointer(rebasing: $0[headLength..<filled])) }) {
            return stop
        }
        if buffer.count < 128 * 1024 { buffer = [UInt8](repeating: 0, count: 128 * 1024) }
        while body.count < expected ?? Int.max {
            let received = buffer.withUnsafeMutableBytes { connection.receive(into: $0, until: nextDeadline(), cancellation: cancellation) }
            switch received {
            case .bytes(let count):
                if let stop = buffer.withUnsafeBytes({ take(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) { return stop }
            case .end:
                if let expected {
                    return failure(.truncated, "transfer closed with \(expected - body.count) bytes remaining to read")
                }
                return .answered(.success(response(to: request, head: head, body: body)))
            case .failed(let error): return failure(.connectionLost, "Recv failure: \(errnoDescription(error))")
            case .timedOut: return timedOut(received: body.count, expected: expected)
            case .cancelled: return failure(.cancelled)
            }
        }
        return .answered(.success(response(to: request, head: head, body: body)))
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
