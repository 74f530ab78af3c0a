#if !canImport(Darwin)
import Synchronization
#endif

/// A byte that one thread changes under a lock of its own and others read without one, kept
/// inline in the object that owns it (as ``AtomicFlag``): for a side effect's cancellation, which
/// the registry records under its lock and the side effect's task reads as it starts.
struct AtomicByte: ~Copyable, Sendable {
    #if canImport(Darwin)
    // Swift's `Atomic` needs macOS 15 / iOS 18, later than the package's minimum: a lock stands in.
    private let byte = Locked<UInt8>(0)
    #else
    private let byte = Atomic<UInt8>(0)
    #endif

    /// A byte holding 0.
    init() {}

    /// Replaces the value.
    func store(_ value: UInt8) {
        #if canImport(Darwin)
        byte.withLock { $0 = value }
        #else
        byte.store(value, ordering: .releasing)
        #endif
    }

    /// The value.
    var value: UInt8 {
        #if canImport(Darwin)
        byte.withLock { $0 }
        #else
        byte.load(ordering: .acquiring)
        #endif
    }
}
