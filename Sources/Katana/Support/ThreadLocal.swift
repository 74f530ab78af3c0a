#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Thread-local slots for the package's per-thread markers (which store drains on this thread,
/// which interceptor run is in progress, ...), each a pthread key created once.
enum ThreadLocal {
    /// A new key; its slot starts out nil on every thread.
    static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        let code = pthread_key_create(&key, nil)
        if code != 0 {
            fatalError("Katana: pthread_key_create failed with error \(code); the process has run out of thread-local keys")
        }
        return key
    }
}
