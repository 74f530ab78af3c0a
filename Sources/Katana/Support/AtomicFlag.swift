#if !canImport(Darwin)
import Synchronization
#endif

/// A flag that is raised once and read without a lock, kept inline in the object that owns it
/// (unlike ``AtomicWord``, no allocation of its own).
struct AtomicFlag: ~Copyable, Sendable {
    #if canImport(Darwin)
    // Swift's `Atomic` needs macOS 15 / iOS 18, later than the package's minimum: a lock stands in.
    private let flag = Locked(false)
    #else
    private let flag = Atomic(false)
    #endif

    /// A lowered flag.
    init() {}

    /// Raises the flag; it stays raised.
    func raise() {
        #if canImport(Darwin)
        flag.withLock { $0 = true }
        #else
        flag.store(true, ordering: .releasing)
        #endif
    }

    /// Whether the flag has been raised.
    var isRaised: Bool {
        #if canImport(Darwin)
        flag.withLock { $0 }
        #else
        flag.load(ordering: .acquiring)
        #endif
    }
}
