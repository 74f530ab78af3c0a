import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KatanaTestSupport

/// A plain socket to the inspector, for requests a browser or URLSession would not make as they
/// are (another Host, a WebSocket handshake from another site's page, a request cut short or
/// malformed), and for a page that opens the live stream and then never reads it (the receive
/// buffer is small, so that it fills quickly).
final class RawRequest {
    private let socket: Int32

    /// Connects to the inspector on `port` and sends `head` (the request line and headers, each
    /// line ended by CRLF, without the blank line that ends them).
    convenience init(port: Int, head: String) throws {
        try self.init(port: port, bytes: Array((head + "\r\n").utf8))
    }

    /// Connects to the inspector on `port` and sends `bytes` as they are (nothing when empty).
    init(port: Int, bytes: [UInt8]) throws {
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
        guard connected == 0 else {
            close(socket)
            throw Failure("connect() failed")
        }
        guard send(bytes, waiting: true) else {
            close(socket)
            throw Failure("send() failed")
        }
    }

    /// Sends as much of `bytes` as the connection takes without waiting (the rest is dropped);
    /// false when the connection is closed.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        send(bytes, waiting: false)
    }

    private func send(_ bytes: [UInt8], waiting: Bool) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { sendWithoutSignal(socket, $0.baseAddress, $0.count, waiting: waiting) }
            if sent < 0, !waiting, errno == EAGAIN || errno == EWOULDBLOCK { return true }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Waits, without holding a thread, until the server has closed every one of `requests`;
    /// false when some are still open after `timeout`.
    static func allClosed(_ requests: [RawRequest], within timeout: Duration) async throws -> Bool {
        var open = requests
        return try await polled("the server to close \(requests.count) connections", within: timeout) {
            open.removeAll { $0.isClosedByServer }
            return open.isEmpty
        }
    }

    /// Polls `condition` (a socket: nothing signals it) until it holds, true, or until `timeout`
    /// has passed, false: for the waits whose running out is what the test looks at.
    private static func polled(_ what: String, within timeout: Duration, _ condition: () throws -> Bool) async throws -> Bool {
        do {
            try await poll(what, timeout: timeout, condition)
            return true
        } catch is TimedOut {
            return false
        }
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

    /// The response's first line (`HTTP/1.1 403 Forbidden`), read within `timeout`; nil when the
    /// server closes the connection or says nothing by then. It waits without holding a thread.
    func statusLine(within timeout: Duration) async throws -> String? {
        var received: [UInt8] = []
        _ = try await Self.polled("a status line", within: timeout) { readAll(into: &received) || received.contains(0x0D) }
        guard let end = received.firstIndex(of: 0x0D) else { return nil }
        return String(decoding: received[..<end], as: UTF8.self)
    }

    /// Reads everything the server sent until it closes the connection; false when it has not
    /// closed it within `timeout`. It waits without holding a thread.
    func readsToTheEnd(within timeout: Duration) async throws -> Bool {
        try await Self.polled("the server to close the connection", within: timeout) { isClosedByServer }
    }

    /// Everything the server sends until it closes the connection; nil when it has not closed it
    /// within `timeout`. It waits without holding a thread.
    func wholeResponse(within timeout: Duration) async throws -> [UInt8]? {
        var received: [UInt8] = []
        let closed = try await Self.polled("the whole response", within: timeout) { readAll(into: &received) }
        return closed ? received : nil
    }

    /// Whether the server has closed the connection, looked at without waiting (what it sent
    /// before is read and dropped).
    var isClosedByServer: Bool {
        var dropped: [UInt8] = []
        return readAll(into: &dropped)
    }

    /// Appends to `received` what the server has sent, read without waiting; whether it has
    /// closed the connection.
    private func readAll(into received: inout [UInt8]) -> Bool {
        while true {
            switch readWaiting() {
            case .bytes(let bytes): received += bytes
            case .nothingYet: return false
            case .closed: return true
            }
        }
    }

    /// What a read without waiting found.
    private enum Read {
        case bytes([UInt8])
        case nothingYet
        case closed
    }

    private func readWaiting() -> Read {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .nothingYet }
        return .closed
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) {
            self.description = description
        }
    }
}

/// `send(2)` that reports a connection the server closed as an error instead of raising SIGPIPE,
/// and, unless `waiting`, returns at once when the socket's buffer is full.
private func sendWithoutSignal(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, waiting: Bool) -> Int {
    #if canImport(Glibc)
    Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT)))
    #else
    Darwin.send(socket, bytes, count, waiting ? 0 : MSG_DONTWAIT)
    #endif
}
