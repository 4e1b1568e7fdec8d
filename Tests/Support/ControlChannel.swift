#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A minimal HTTP/1.0 client for the test server's plain control port: one connection per
/// request, so it is safe from any thread and never touches the downloader under test.
struct ControlChannel: Sendable {
    let port: UInt16

    struct Reply: Sendable {
        var status: Int
        var body: Data
    }

    func send(_ method: String, _ target: String) throws -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServer.Failure.controlFailed("socket() failed, errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestServer.Failure.controlFailed("cannot connect to port \(port), errno \(errno)") }

        let request = Array("\(method) \(target) HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw TestServer.Failure.controlFailed("send failed, errno \(errno)") }
            sent += n
        }
        var response = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            response.append(contentsOf: buffer[0..<n])
        }
        guard let split = response.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw TestServer.Failure.controlFailed("no HTTP reply to \(method) \(target)")
        }
        let statusLine = String(decoding: response[..<split.lowerBound], as: UTF8.self).split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestServer.Failure.controlFailed("bad status line for \(method) \(target)")
        }
        return Reply(status: status, body: Data(response[split.upperBound...]))
    }
}
