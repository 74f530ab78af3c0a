#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The run of a bridged middleware (see ``middlewareToInterceptor(_:)``) in progress on one thread:
/// it carries the first error that `next` throws during the run out of the middleware, whose
/// closures cannot throw.
///
/// There is one per thread, made the first time a bridged middleware runs on the thread, kept in a
/// thread-local slot and released when the thread exits; so a run allocates nothing. A run saves
/// what the thread's run held and restores it when it ends, so nested runs (a chain of bridged
/// middleware, each one a level; a middleware that dispatches synchronously) each see only their
/// own error.
///
/// Only `next` called on the run's thread while the run is in progress can report an error to the
/// run's item. A `next` called later, or from another thread, cannot reach the original item (whose
/// outcome is not reported through a promise anyway: the store handles an item passed on outside a
/// run without one): its error is dropped, unless a bridged run is in progress on the calling thread
/// at that moment, which then takes it, as the store's own interceptor runs take whatever reaches
/// the end of the chain on their thread. So a middleware that calls, during a later run, a `next`
/// it kept from an earlier item gets that error on the later item.
///
/// Not `Sendable`, and it need not be: only its own thread ever reaches an instance, through its
/// thread-local slot.
final class MiddlewareRun {
    /// Whether a run is in progress on this thread: outside one, errors are dropped.
    private var inProgress = false
    /// The first error reported during the run in progress, if any.
    private var error: (any Error)?

    /// Made only by ``install()``, which puts it in this thread's slot.
    private init() {}

    /// Runs `body` (a middleware's handling of one item) as a run on this thread; returns the first
    /// error ``report(_:)`` was given on this thread while `body` ran.
    ///
    /// If this thread's slot cannot be filled (see ``install()``), `body` still runs, but errors
    /// cannot be carried out of it and nil is returned: the item is then handled as if the error had
    /// not been thrown, which is better than stopping the process.
    static func capturingError(of body: () -> Void) -> (any Error)? {
        guard let pointer = pthread_getspecific(slot) ?? install() else {
            body()
            return nil
        }
        // Borrowed, not retained: the slot holds a reference until the thread exits, which it
        // cannot do during this call (a retain and a release added about 60 instructions to every
        // run, measured with callgrind).
        return Unmanaged<MiddlewareRun>.fromOpaque(pointer)._withUnsafeGuaranteedRef { run in
            run.capturingError(of: body)
        }
    }

    /// Gives `error` (thrown by `next`) to the run in progress on this thread, which keeps it if it
    /// is the first; dropped if no run is in progress here (a `next` called late or elsewhere).
    static func report(_ error: any Error) {
        // Only reads the slot: a thread that never ran a bridged middleware has no run to give the
        // error to, and needs no instance for it.
        guard let pointer = pthread_getspecific(slot) else { return }
        Unmanaged<MiddlewareRun>.fromOpaque(pointer)._withUnsafeGuaranteedRef { run in
            guard run.inProgress, run.error == nil else { return }
            run.error = error
        }
    }

    /// ``capturingError(of:)`` on this thread's instance.
    private func capturingError(of body: () -> Void) -> (any Error)? {
        // Saved and restored, so that a run nested in this one does not see this run's error and
        // this one does not see the nested run's.
        let savedInProgress = inProgress
        let savedError = error
        inProgress = true
        error = nil
        body()
        let caught = error
        inProgress = savedInProgress
        error = savedError
        return caught
    }

    /// Makes this thread's instance and puts it in the slot, the first time a bridged middleware
    /// runs on the thread; returns the slot's new value, or nil if the slot cannot be filled
    /// (with a valid key, `pthread_setspecific` fails only when it cannot allocate the thread's
    /// storage for it, and says so: not a reason to stop the process).
    @inline(never)
    private static func install() -> UnsafeMutableRawPointer? {
        // Retained on behalf of the slot; released by the slot's destructor when the thread exits.
        let retained = Unmanaged.passRetained(MiddlewareRun())
        guard pthread_setspecific(slot, retained.toOpaque()) == 0 else {
            retained.release()
            return nil
        }
        return retained.toOpaque()
    }

    /// The thread-local slot: a pthread key, made on first use, whose destructor releases the
    /// thread's instance when the thread exits (so threads that come and go leak nothing).
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let code = pthread_key_create(&key) { pointer in
            MiddlewareRun.releaseSlotValue(pointer)
        }
        if code != 0 {
            // At first use, once per process: only a process that has used up its thread-local
            // keys gets here, and no middleware can run correctly without one.
            fatalError("KatanaLegacy: pthread_key_create failed with error \(code); the process has run out of thread-local keys")
        }
        return key
    }()

    /// The slot's destructor: releases the instance the slot retained (optional because the C
    /// signature differs between Glibc and Darwin).
    private static func releaseSlotValue(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        Unmanaged<MiddlewareRun>.fromOpaque(pointer).release()
    }
}
