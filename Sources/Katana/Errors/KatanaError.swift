/// Everything the store and its promises reject with when they are given something they cannot use.
///
/// Each case names the types involved; its `description` says what was expected and how to fix it.
/// The store keeps working after any of them.
public enum KatanaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The item is neither an ``AnyStateUpdater`` nor an ``AnySideEffect``.
    case unsupportedDispatchable(item: String)
    /// The item is both an ``AnyStateUpdater`` and an ``AnySideEffect``, so it is unclear how to handle it.
    case ambiguousDispatchable(item: String)
    /// A ``StateUpdater`` whose `StateType` is not the store's state type.
    case stateTypeMismatch(updater: String, expected: String, actual: String)
    /// An ``AnyStateUpdater`` returned a state of another type than the store's.
    case invalidStateReturned(updater: String, expected: String, actual: String)
    /// A side effect whose state or dependency types are not the store's.
    case sideEffectContextMismatch(sideEffect: String, expected: String, actual: String)
    /// An ``AsyncSideEffect`` was run through the synchronous `anySideEffect(_:)` entry point.
    case asyncSideEffectCalledSynchronously(sideEffect: String)
    /// The item was dispatched to (or still waiting in) a store that has been deallocated.
    case storeDeallocated(item: String)
    /// The interceptors returned without passing the side effect on, so it did not run for this dispatch.
    case blockedByInterceptor(item: String)
    /// The handled item produced a value that the dispatch promise cannot carry (after an
    /// interceptor replaced the item with one of another kind).
    case resultTypeMismatch(item: String, expected: String, actual: String)
    /// ``Promise/wait(timeout:)`` gave up before the promise settled.
    case waitTimedOut(after: Duration)
    /// ``Promise/wait(timeout:)`` was called on a store's own queue, where it would deadlock.
    case waitOnStoreQueue
    /// ``Promise/retry(_:)`` or ``Promise/retryWhen(in:_:_:)`` was asked for fewer than one attempt.
    case invalidRetryAttempts(Int)
    /// ``Promise/timeout(in:timeout:error:)`` gave up (after this many seconds) before the promise
    /// settled, and no error of the caller's was given. Hydra called this `PromiseError.timeout`.
    case promiseTimedOut(seconds: Double)
    /// The predicate of ``Promise/validate(in:_:)`` returned false for a value of this type.
    /// Hydra called this `PromiseError.rejected`.
    case validationFailed(valueType: String)
    /// `any(_:)` was given no promises, so nothing could settle it. Hydra
    /// called this `PromiseError.invalidInput`.
    case anyOfNoPromises
    /// `thenDispatch(_:)` was called on a promise that does not come from `store.dispatch(_:)`
    /// (neither that promise nor one chained from it), so there is no store to dispatch the item to.
    case thenDispatchWithoutStore(item: String)
    /// The promise was cancelled (``Promise/cancel()``, `cancelSideEffects(id:)`, or a newer side
    /// effect with the same id that cancels those in flight) before its work finished.
    case cancelled(item: String)
    /// The store's ``PartialStore/shutdown(_:deadline:gracePeriod:)`` cancelled the work: it chose
    /// ``ShutdownMode/cancelWork``, or its deadline passed before the work finished.
    case cancelledByShutdown(item: String)
    /// The item was dispatched after the store's ``PartialStore/shutdown(_:deadline:gracePeriod:)`` began: a
    /// store that shuts down takes no new items.
    case storeShutDown(item: String)
    /// The restore function of the store's ``DispatchContext`` returned without calling the body
    /// it was given, so the item's side effect (or 2.x follow-up) did not run.
    case dispatchContextNotRestored(item: String)

    /// What went wrong, with the types involved and how to fix it.
    public var description: String {
        switch self {
        case .unsupportedDispatchable(let item):
            return "\(item) was dispatched, but it is neither a state updater nor a side effect. "
                + "Make it conform to StateUpdater (to change the state) or to SideEffect, "
                + "ReturningSideEffect or AsyncSideEffect (to run logic)."
        case .ambiguousDispatchable(let item):
            return "\(item) conforms to both AnyStateUpdater and AnySideEffect, so the store cannot tell "
                + "whether to update the state or run logic. Split it into a StateUpdater and a SideEffect "
                + "that dispatches it."
        case .stateTypeMismatch(let updater, let expected, let actual):
            return "\(updater) updates \(actual), but the store's state is \(expected). "
                + "Dispatch it to a Store<\(expected), _> or change its StateType to \(expected)."
        case .invalidStateReturned(let updater, let expected, let actual):
            return "\(updater).updatedState(currentState:) returned a \(actual), but the store's state is "
                + "\(expected). Return the (updated) \(expected) it was given; the state was left unchanged."
        case .sideEffectContextMismatch(let sideEffect, let expected, let actual):
            return "\(sideEffect) needs a \(expected), but the store provides a \(actual). "
                + "Make its StateType and Dependencies match the store's state and dependency container types."
        case .asyncSideEffectCalledSynchronously(let sideEffect):
            return "\(sideEffect) is an AsyncSideEffect and cannot run through anySideEffect(_:). "
                + "Dispatch it to a store, or await its sideEffect(_:) directly."
        case .storeDeallocated(let item):
            return "\(item) was not handled because its store has been deallocated. "
                + "Keep a strong reference to the store for as long as items are dispatched to it."
        case .blockedByInterceptor(let item):
            return "\(item) was blocked: the interceptors returned without passing it on with next(item), "
                + "so it was not run as part of this dispatch. This is expected if an interceptor filters it; "
                + "otherwise make the interceptor call next(item) before it returns (an item passed on later "
                + "is still handled, but its outcome is not reported through this promise)."
        case .resultTypeMismatch(let item, let expected, let actual):
            return "\(item) produced a \(actual), but its dispatch promise expects a \(expected). "
                + "An interceptor probably replaced the item with one of another kind; replace it with an item "
                + "that returns \(expected), or dispatch it with anyDispatch(_:)."
        case .waitTimedOut(let timeout):
            return "The promise did not settle within \(timeout). Wait longer, or check that the work "
                + "behind it (for example the store's state initializer) can finish."
        case .waitOnStoreQueue:
            return "wait(timeout:) was called on a store's updater queue (in a state updater, an interceptor "
                + "or a listener run on that queue), where it would deadlock. Chain with then(in:_:) instead, "
                + "or wait from a side effect."
        case .invalidRetryAttempts(let attempts):
            return "retry(\(attempts)) or retryWhen(\(attempts)) needs at least one attempt. Pass 1 or more."
        case .promiseTimedOut(let seconds):
            return "The promise did not settle within the \(seconds) s given to timeout(timeout:), so it was rejected. "
                + "Allow more time, check that the work behind it can finish, or pass the error to report with "
                + "timeout(timeout:error:)."
        case .validationFailed(let valueType):
            return "A \(valueType) value did not pass validate(_:): its predicate returned false. "
                + "To say why, throw an error of your own from the predicate instead of returning false."
        case .anyOfNoPromises:
            return "any(_:) was given no promises, so none could settle it. Pass at least one promise, "
                + "or check for an empty list before calling it."
        case .thenDispatchWithoutStore(let item):
            return "thenDispatch(\(item)) was called on a promise that does not come from store.dispatch(_:) "
                + "(neither that promise nor one chained from it, nor all/any/zip of promises of one store), so "
                + "there is no store to send \(item) to. Write then { _ in store.dispatch(item) } (in a side effect: "
                + "then { _ in context.dispatch(item) }) instead."
        case .cancelled(let item):
            return "\(item) was cancelled before it finished, so its promise was rejected. Cancellation is "
                + "expected here if your code called cancel(), cancelSideEffects(id:), or dispatched a newer side "
                + "effect with the same cancellationID; check isCancelled to tell it from a failure."
        case .cancelledByShutdown(let item):
            return "\(item) was cancelled because the store shut down: shutdown(.cancelWork) was called, or "
                + "shutdown(.finishWork, deadline:) reached its deadline first. Give the deadline more time if "
                + "this work should finish."
        case .storeShutDown(let item):
            return "\(item) was dispatched after the store began shutting down, so it was not handled. "
                + "A store takes no new items once shutdown(_:deadline:gracePeriod:) has been called; dispatch before "
                + "shutting down, or stop the code that dispatches first."
        case .dispatchContextNotRestored(let item):
            return "\(item) did not run: the store's DispatchContext restore function returned without calling "
                + "the body it was given. Make restore and restoreAsync call their body exactly once, with the "
                + "captured value in place (for a task-local: $value.withValue(value) { body() })."
        }
    }

    /// Whether `error` reports a cancellation (``cancelled(item:)`` or ``cancelledByShutdown(item:)``).
    public static func isCancellation(_ error: any Error) -> Bool {
        switch error as? KatanaError {
        case .cancelled, .cancelledByShutdown:
            return true
        default:
            return false
        }
    }
}
