#if canImport(Glibc)
import Glibc
@testable import Katana
import Testing

/// A promise's lock is a default pthread mutex that the package does not pass to
/// `pthread_mutex_init` on glibc, whose initial value is all zeros. These tests hold glibc to that.
@Suite struct PromiseLockTests {
    @Test func glibcsDefaultMutexIsAllZeros_soWritingZerosInitialisesOne() {
        var initialised = pthread_mutex_t()
        // Marks every byte, so that a byte the call leaves alone would show.
        withUnsafeMutableBytes(of: &initialised) { _ = $0.initializeMemory(as: UInt8.self, repeating: 0xA5) }
        #expect(pthread_mutex_init(&initialised, nil) == 0)
        let bytes = withUnsafeBytes(of: &initialised) { Array($0) }
        #expect(bytes.allSatisfy { $0 == 0 })
        pthread_mutex_destroy(&initialised)
    }

    @Test func aMutexInitialisedByThePackageLocksAndUnlocks() {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        defer { mutex.deallocate() }
        PthreadMutex.initialize(mutex, kind: .plain)
        #expect(PthreadMutex.lock(mutex) == 0)
        #expect(pthread_mutex_trylock(mutex) == EBUSY)
        PthreadMutex.unlock(mutex)
        #expect(pthread_mutex_trylock(mutex) == 0)
        PthreadMutex.unlock(mutex)
        PthreadMutex.destroy(mutex)
    }
}
#endif
