import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A page that opens the live stream and then never reads it: a plain socket that sends the
/// WebSocket handshake and nothing else, with a small receive buffer so that it fills quickly.
final class StalledClient {
    private let socket: Int32

    /// Connects to the inspector on `port` and asks for the live stream from position `after`.
    init(port: Int, after: UInt64) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failure("socket() failed") }
        var small: Int32 = 4_096
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure("connect() failed") }
        let request = "GET /api/live?after=\(after) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: c3RhbGxlZCBjbGllbnQ=\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let sent = request.utf8CString.withUnsafeBufferPointer { send(socket, $0.baseAddress, request.utf8.count, 0) }
        guard sent == request.utf8.count else { throw Failure("send() failed") }
    }

    deinit {
        close(socket)
    }

    /// Reads everything the server sent until it closes the connection; false when it has not
    /// closed it within `timeout`.
    func readsToTheEnd(within timeout: Duration) -> Bool {
        var wait = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
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
