#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a thread is asleep in the kernel (blocked on a semaphore, a sleep, I/O) rather than
/// running or waiting for a core: how the store tells a side effect that blocks from one that
/// computes, so that it lends another worker for the first and not for the second. On Linux it
/// reads the thread's state in `/proc`, as Dispatch's own thread pool does; elsewhere it cannot
/// tell, and a side effect that stays long on its worker counts as blocked.
enum ThreadActivity {
    /// The calling thread's kernel id, or 0 where the system does not give one.
    static func currentThreadID() -> Int32 {
        #if os(Linux)
        // "/proc/thread-self" links to "<pid>/task/<tid>".
        var buffer = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard length > 0 else { return 0 }
        let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.flatMap { Int32($0) } ?? 0
        #else
        return 0
        #endif
    }

    /// Whether `thread` (a kernel id from ``currentThreadID()``) is asleep; nil when it cannot be
    /// known (another system, an id of 0, a thread that has ended).
    static func isAsleep(_ thread: Int32) -> Bool? {
        #if os(Linux)
        guard thread > 0 else { return nil }
        let descriptor = open("/proc/self/task/\(thread)/stat", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = read(descriptor, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return isAsleep(statLine: buffer[..<length])
        #else
        return nil
        #endif
    }

    /// Reads the state field of a `/proc/.../stat` line ("tid (name) S ..."): after the last `)`,
    /// since the name may hold spaces and parentheses. "R" is running or waiting for a core;
    /// anything else (sleeping, waiting for I/O, stopped) is asleep.
    static func isAsleep(statLine: some BidirectionalCollection<UInt8>) -> Bool? {
        guard let close = statLine.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let rest = statLine[statLine.index(after: close)...].drop { $0 == UInt8(ascii: " ") }
        guard let state = rest.first else { return nil }
        return state != UInt8(ascii: "R")
    }
}
