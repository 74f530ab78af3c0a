#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import KatanaThreadSlots

/// What the operating system tells the store about its worker threads: whether one is asleep in
/// the kernel (blocked on a semaphore, a sleep, I/O) or running (or waiting for a core). The
/// store lends another worker for a side effect that blocks, not for one that computes; where the
/// system cannot tell, a job long on its worker counts as blocked (``WorkerDemand``).
///
/// A class, so that the engine calls it through one reference. The engine takes one probe
/// (`Store.Configuration.threadProbe`, for the package's own tests):
/// ``ProcThreadProbe`` by default, and ``UnknowingThreadProbe`` to test the fallback on Linux.
package protocol ThreadProbe: AnyObject, Sendable {
    /// An id of the calling thread that ``isAsleep(_:)`` understands; 0 where there is none.
    func currentThread() -> Int32

    /// Whether `thread` is asleep; nil when it cannot be known (another system, an id of 0, a
    /// thread that has ended).
    func isAsleep(_ thread: Int32) -> Bool?
}

/// The probe of Linux: a thread's state in `/proc`, as Dispatch's own thread pool reads it.
/// Elsewhere it knows nothing.
package final class ProcThreadProbe: ThreadProbe {
    /// The probe.
    package init() {}

    /// The calling thread's kernel id, or 0 where there is none.
    package func currentThread() -> Int32 {
        #if os(Linux)
        Int32(katana_current_thread_id())
        #else
        0
        #endif
    }

    /// Whether `thread` (a kernel id) is asleep, from `/proc/self/task/<id>/stat`.
    package func isAsleep(_ thread: Int32) -> Bool? {
        #if os(Linux)
        guard thread > 0 else { return nil }
        let descriptor = open("/proc/self/task/\(thread)/stat", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = read(descriptor, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return Self.isAsleep(statLine: buffer[..<length])
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

/// A probe that can tell nothing, as on a system without `/proc`: the store then falls back to
/// counting a job long on its worker as blocked. For tests of that fallback on Linux.
package final class UnknowingThreadProbe: ThreadProbe {
    /// The probe.
    package init() {}

    /// No id.
    package func currentThread() -> Int32 {
        0
    }

    /// Unknown.
    package func isAsleep(_ thread: Int32) -> Bool? {
        nil
    }
}
