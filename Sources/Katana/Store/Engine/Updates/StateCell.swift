#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a store keeps its state: the value and its lock, in one allocation.
///
/// State updaters change the value in place under the lock (so a large state is never copied by
/// an update nobody observes), and readers copy it out under the same lock, so no read overlaps an
/// update. The lock is an error-checking mutex: a read from inside one of the store's own updaters,
/// on the thread that holds the lock, is reported by name instead of deadlocking.
///
/// A reader waits for at most the updater running at that moment: updaters are meant to be quick,
/// and letting readers see the state while one runs would take a copy of the whole state per update.
final class StateCell<S: State>: ManagedBuffer<S, pthread_mutex_t> {
    /// A cell holding `state`.
    static func make(_ state: S) -> StateCell<S> {
        let cell = Unsafe.downcast(create(minimumCapacity: 1) { _ in state }, to: StateCell<S>.self)
        cell.withUnsafeMutablePointerToElements { PthreadMutex.initialize($0, kind: .errorChecking) }
        return cell
    }

    deinit {
        withUnsafeMutablePointerToElements { PthreadMutex.destroy($0) }
    }

    /// A copy of the state.
    ///
    /// Reading it from inside one of the store's own state updaters is the documented programming
    /// error (the updater holds the lock on this very thread) and stops the process with a message
    /// that names the fix.
    func read() -> S {
        withUnsafeMutablePointers { state, mutex in
            guard PthreadMutex.lock(mutex) == 0 else {
                StorePrecondition.stateReadInsideOwnUpdater()
            }
            defer { PthreadMutex.unlock(mutex) }
            return state.pointee
        }
    }

    /// Applies an updater to the state in place, under the lock, through a pointer to where the
    /// state is stored (no `inout` access in between).
    @inline(__always)
    func apply(_ applier: ItemKind.StateApplier, _ item: any Dispatchable) -> KatanaError? {
        withUnsafeMutablePointers { state, mutex in
            guard PthreadMutex.lock(mutex) == 0 else {
                StorePrecondition.stateReadInsideOwnUpdater()
            }
            defer { PthreadMutex.unlock(mutex) }
            return applier(item, UnsafeMutableRawPointer(state))
        }
    }

    /// Runs `body` with the state, in place, under the lock.
    @inline(__always)
    func update<Result>(_ body: (inout S) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { state, mutex in
            guard PthreadMutex.lock(mutex) == 0 else {
                StorePrecondition.stateReadInsideOwnUpdater()
            }
            defer { PthreadMutex.unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}
