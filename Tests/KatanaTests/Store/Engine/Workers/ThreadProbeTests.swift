import Foundation
import Testing
@testable import Katana
import KatanaTestSupport

/// Reading whether a thread is asleep, from `/proc/<pid>/task/<tid>/stat` lines and from real threads.
@Suite struct ThreadProbeTests {
    private func bytes(_ line: String) -> [UInt8] {
        Array(line.utf8)
    }

    @Test func theStateAfterTheLastParenthesis_decides_whateverTheNameHolds() {
        #expect(ProcThreadProbe.isAsleep(statLine: bytes("1234 (Katana.worker) S 1 1234")) == true)
        #expect(ProcThreadProbe.isAsleep(statLine: bytes("1234 (Katana.worker) R 1 1234")) == false)
        #expect(ProcThreadProbe.isAsleep(statLine: bytes("1234 (Katana.worker) D 1 1234")) == true)
        #expect(ProcThreadProbe.isAsleep(statLine: bytes("1234 (a) R (b)) S 1")) == true)
        #expect(ProcThreadProbe.isAsleep(statLine: bytes("1234 (odd name) R 1")) == false)
        #expect(ProcThreadProbe.isAsleep(statLine: bytes("garbage")) == nil)
        #expect(ProcThreadProbe.isAsleep(statLine: bytes("1 (x)")) == nil)
    }

    #if os(Linux)
    @Test func aThreadBlockedOnASemaphore_isAsleep_andTheCallingThreadIsNot() async throws {
        #expect(ProcThreadProbe().isAsleep(ProcThreadProbe().currentThread()) == false)
        let blocked = DispatchSemaphore(value: 0)
        let id = LockedList<Int32>()
        let thread = Thread {
            id.append(ProcThreadProbe().currentThread())
            blocked.wait()
        }
        thread.start()
        defer { blocked.signal() }
        let threadID = try #require(try await id.waitForCount(1).first)
        #expect(threadID > 0)
        #expect(threadID != ProcThreadProbe().currentThread())
        // Nothing signals when a thread falls asleep: its state is polled.
        try await poll("the thread to fall asleep") { ProcThreadProbe().isAsleep(threadID) == true }
        #expect(ProcThreadProbe().isAsleep(0) == nil)
    }

    @Test func theCallingThreadsID_isTheOneProcThreadSelfNames_onEveryThread() async throws {
        @Sendable func linkedID() throws -> Int32 {
            let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
            return try #require(link.split(separator: "/").last.flatMap { Int32($0) }, "/proc/thread-self links to \(link)")
        }
        #expect(ProcThreadProbe().currentThread() == (try linkedID()))
        let ids = LockedList<(probe: Int32, linked: Int32?)>()
        let thread = Thread {
            ids.append((ProcThreadProbe().currentThread(), try? linkedID()))
        }
        thread.start()
        let other = try #require(try await ids.waitForCount(1).first)
        #expect(other.probe == other.linked)
        #expect(other.probe != ProcThreadProbe().currentThread())
    }
    #endif
}
