import Glibc
import Synchronization

/// One TCP connection of `PlainHTTPFetch`: nonblocking, every wait bounded by a deadline and
/// broken off within a tenth of a second of a cancellation.
///
/// Unchecked Sendable: one fetch uses it at a time; between fetches it rests in
/// `PlainConnectionPool`, which hands it over under its lock.
final class PlainConnection: @unchecked Sendable {
    private let socket: Int32

    private init(socket: Int32) {
        self.socket = socket
    }

    deinit { close(socket) }

    /// Set from another thread when every requester has gone; waits end at their next slice.
    final class Cancellation: Sendable {
        let raised = Atomic(false)
    }

    enum OpenFailure: Error {
        /// The name did not resolve, or every address refused or failed: nothing was sent.
        case unreachable
        /// No address answered within the timeout.
        case timedOut
        case cancelled
    }

    enum Received {
        case bytes(Int)
        /// The server closed the connection.
        case end
        /// The connection failed, with the system's error number.
        case failed(Int32)
        /// Nothing arrived before the deadline.
        case timedOut
        case cancelled
    }

    /// Connects to `host` (a name or an address literal) on `port`, trying its addresses in the
    /// resolver's order, all within `deadline`. An address that has not answered within
    /// `fallbackDelay` while others remain (an IPv6 route that drops packets, say) makes the host
    /// unreachable for this client: libcurl then tries the addresses side by side.
    static func open(host: String, port: Int, deadline: ContinuousClock.Instant, cancellation: Cancellation) -> Result<PlainConnection, OpenFailure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return .failure(.unreachable) }
        defer { freeaddrinfo(first) }
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next?.pointee {
            next = address.ai_next
            let socket = Glibc.socket(address.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { continue }
            let connection = PlainConnection(socket: socket)
            if connect(socket, address.ai_addr, address.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { continue }
                let othersRemain = next != nil
                let waitUntil = othersRemain ? min(deadline, .now + fallbackDelay) : deadline
                switch connection.wait(for: Int16(POLLOUT), until: waitUntil, cancellation: cancellation) {
                case .timedOut: return .failure(othersRemain && ContinuousClock.now < deadline ? .unreachable : .timedOut)
                case .cancelled: return .failure(.cancelled)
                case .ready: break
                }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else { continue }
            }
            // Requests and replies are single writes; Nagle would only hold back a request's tail.
            var on: Int32 = 1
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            return .success(connection)
        }
        return .failure(.unreachable)
    }

    static let fallbackDelay = Duration.milliseconds(250)

    /// Sends all of `bytes`; false when the connection failed, timed out or was cancelled first.
    func send(_ bytes: [UInt8], until deadline: ContinuousClock.Instant, cancellation: Cancellation) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 { offset += sent; continue }
            guard sent < 0, errno == EAGAIN || errno == EINTR else { return false }
            guard case .ready = wait(for: Int16(POLLOUT), until: deadline, cancellation: cancellation) else { return false }
        }
        return true
    }

    /// Receives what has arrived into `buffer`, waiting until `deadline` for the first byte.
    func receive(into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant, cancellation: Cancellation) -> Received {
        while true {
            // A connection that carried a request before is in delayed-ACK mode, and a body larger
            // than the receive window then waits up to 40 ms for the ACK that reopens it. Asked
            // before every read (the kernel drops the mode again on its own), 100 images from
            // nginx on loopback over kept connections: median 56.5 → 44.0 ms.
            var quick: Int32 = 1
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_QUICKACK, &quick, socklen_t(MemoryLayout<Int32>.size))
            let count = recv(socket, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .end }
            let error = errno
            guard error == EAGAIN || error == EINTR else { return .failed(error) }
            switch wait(for: Int16(POLLIN), until: deadline, cancellation: cancellation) {
            case .ready: continue
            case .timedOut: return .timedOut
            case .cancelled: return .cancelled
            }
        }
    }

    /// Whether nothing has arrived on an idle connection: no bytes, no end, no error. A connection
    /// that is not quiet cannot carry another request.
    func isQuiet() -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    private enum Wait { case ready, timedOut, cancelled }

    /// Polls for `events` in slices of at most 100 ms, so that a cancellation is seen promptly.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant, cancellation: Cancellation) -> Wait {
        while true {
            if cancellation.raised.load(ordering: .relaxed) { return .cancelled }
            let remaining = deadline - .now
            guard remaining > .zero else { return .timedOut }
            let slice = Int32(min(remaining, .milliseconds(100)).milliseconds) + 1
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, slice)
            // An error or hang-up counts as ready: the next call on the socket reports it.
            if ready > 0 { return .ready }
            if ready < 0, errno != EINTR { return .ready }
        }
    }
}
