#if !canImport(Darwin)
import Synchronization
#endif

/// One 64-bit word that threads read and change without a lock: for the few flags and counters
/// the store reads on every item and changes rarely (a shutdown under way, someone waiting for the
/// store to go quiet), where a lock per item would cost more than the rest of the check.
///
/// Loads acquire and changes release, so what a thread wrote before changing the word is seen by a
/// thread that reads the change.
final class AtomicWord: Sendable {
    #if canImport(Darwin)
    // Swift's `Atomic` needs macOS 15 / iOS 18, later than the package's minimum: a lock stands in.
    private let word: Locked<UInt64>
    #else
    private let word: Atomic<UInt64>
    #endif

    /// A word holding `value`.
    init(_ value: UInt64 = 0) {
        #if canImport(Darwin)
        word = Locked(value)
        #else
        word = Atomic(value)
        #endif
    }

    /// The current value.
    @inline(__always)
    func load() -> UInt64 {
        #if canImport(Darwin)
        word.withLock { $0 }
        #else
        word.load(ordering: .acquiring)
        #endif
    }

    /// Replaces the value.
    func store(_ value: UInt64) {
        #if canImport(Darwin)
        word.withLock { $0 = value }
        #else
        word.store(value, ordering: .releasing)
        #endif
    }

    /// Adds `delta` (wrapping) and returns the new value.
    @discardableResult
    func add(_ delta: UInt64) -> UInt64 {
        #if canImport(Darwin)
        word.withLock { value in
            value &+= delta
            return value
        }
        #else
        word.wrappingAdd(delta, ordering: .sequentiallyConsistent).newValue
        #endif
    }

    /// Subtracts `delta` (wrapping) and returns the new value.
    @discardableResult
    func subtract(_ delta: UInt64) -> UInt64 {
        #if canImport(Darwin)
        word.withLock { value in
            value &-= delta
            return value
        }
        #else
        word.wrappingSubtract(delta, ordering: .sequentiallyConsistent).newValue
        #endif
    }
}
