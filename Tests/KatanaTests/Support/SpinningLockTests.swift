#if canImport(Glibc)
import Dispatch
import Glibc
@testable import Katana
import Testing

/// A lock made `spinning` is glibc's adaptive mutex (a thread that finds it held spins a little
/// before it sleeps), and still excludes: what the side-effect registry's lock relies on.
@Suite struct SpinningLockTests {
    /// The mutex type glibc records for the storage's mutex.
    private func mutexKind<Value>(of storage: LockedStorage<Value>) -> Int32 {
        storage.withUnsafeMutablePointerToElements { $0.pointee.__data.__kind }
    }

    @Test func aSpinningLock_isAnAdaptiveMutex_andAPlainOneTheDefault() {
        #expect(mutexKind(of: LockedStorage.make(0, spinning: true)) == Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #expect(mutexKind(of: LockedStorage.make(0)) == Int32(PTHREAD_MUTEX_TIMED_NP))
    }

    @Test func aSpinningLock_excludes_whenFourThreadsTakeItAtOnce() {
        let counter = Locked(0, spinning: true)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0 ..< 20_000 {
                counter.withLock { $0 += 1 }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }
}
#endif
