import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain socket to the inspector, for requests a browser or URLSession would not make as they
/// are (another Host, a WebSocket handshake from another site's page), and for a page that opens
/// the live stream and then never reads it (the receive buffer is small, so that it fills quickly).
final class RawRequest {
    private let socket: Int32

    /// Connects to the inspector on `port` and sends `head` (the request line and headers, each
    /// line ended by CRLF, without the blank line that ends them).
    init(port: Int, head: String) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failure("socket() failed") }
        var small: Int32 = 4_096
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var wait = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure("connect() failed") }
        let request = Array((head + "\r\n").utf8)
        let sent = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw Failure("send() failed") }
    }

    /// A live-stream handshake on `port` from position `after`, with `extraHeaders`.
    static func liveStream(port: Int, after: UInt64, extraHeaders: String = "") throws -> RawRequest {
        try RawRequest(
            port: port,
            head: "GET /api/live?after=\(after) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: c3RhbGxlZCBjbGllbnQ=\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders
        )
    }

    deinit {
        close(socket)
    }

    /// The response's first line (`HTTP/1.1 403 Forbidden`), read within `timeout`.
    func statusLine(within timeout: Duration) -> String? {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
                if let end = received.firstIndex(of: 0x0D) {
                    return String(decoding: received[..<end], as: UTF8.self)
                }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                break
            }
        }
        return nil
    }

    /// Reads everything the server sent until it closes the connection; false when it has not
    /// closed it within `timeout`.
    func readsToTheEnd(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return true }
        }
        return false
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) {
            self.description = description
        }
    }
}
