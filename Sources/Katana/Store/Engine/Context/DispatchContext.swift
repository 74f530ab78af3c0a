/// What a store carries from the code that dispatches an item to the code that handles it: the
/// request behind a state change, for logs, metrics and traces.
///
/// A service that dispatches from its request handlers keeps what identifies the request in a
/// task-local value (swift-distributed-tracing's `ServiceContext.current`, say). The store runs
/// items and side effects elsewhere, where that task-local is not set. With a dispatch context, the
/// store calls `capture` when an item is dispatched, on the dispatching thread or task, and keeps
/// what it returns with the item: interceptors read it (``InterceptedItem/currentDispatchContext``),
/// and the store runs the item's side effect inside `restore` (an async one, its whole task), so
/// what the side effect dispatches is captured there in turn.
///
/// ```swift
/// enum RequestID { @TaskLocal static var current: String? }
///
/// let configuration = Store<AppState, AppDependencies>.Configuration(dispatchContext: DispatchContext(
///     capture: { RequestID.current },
///     restore: { value, body in RequestID.$current.withValue(value as? String) { body() } },
///     restoreAsync: { value, body in await RequestID.$current.withValue(value as? String) { await body() } }
/// ))
/// ```
///
/// The core names no tracing type: the value is whatever `capture` returns. A store without a
/// dispatch context captures nothing and pays one branch per dispatch.
public struct DispatchContext: Sendable {
    /// Runs `body` with a captured value in place (as a task-local's `withValue` does).
    public typealias Restore = @Sendable (_ value: any Sendable, _ body: () -> Void) -> Void
    /// Runs an async `body` with a captured value in place, for the whole of `body`.
    public typealias RestoreAsync = nonisolated(nonsending) @Sendable (
        _ value: any Sendable, _ body: nonisolated(nonsending) () async -> Void
    ) async -> Void

    /// Reads the dispatching code's context; nil when it has none (the item then carries none).
    public let capture: @Sendable () -> (any Sendable)?
    /// Runs a body with a captured value in place: what the store does around a synchronous side
    /// effect, and what an interceptor may do to work inside an item's context (a log line whose
    /// metadata provider reads it).
    public let restore: Restore
    /// Runs an async body with a captured value in place: what the store does around an async
    /// side effect's task.
    public let restoreAsync: RestoreAsync

    /// A dispatch context that reads the dispatching code's context with `capture`, called on the
    /// thread or task that dispatches (it must be quick, and must not throw or dispatch), and puts
    /// a captured value back with `restore` and `restoreAsync`, which must call their body exactly
    /// once (one that does not is a programming error: the item is rejected with
    /// ``KatanaError/dispatchContextNotRestored(item:)``).
    public init(
        capture: @escaping @Sendable () -> (any Sendable)?,
        restore: @escaping Restore,
        restoreAsync: @escaping RestoreAsync
    ) {
        self.capture = capture
        self.restore = restore
        self.restoreAsync = restoreAsync
    }
}

/// A captured dispatch context, as an item's promise keeps it: the value itself, held inline, so
/// that capturing one allocates nothing.
struct CapturedContext: Sendable {
    /// What the dispatch context's `capture` returned.
    let value: any Sendable

    init(_ value: any Sendable) {
        self.value = value
    }
}

extension DispatchContext {
    /// Runs `body` with `context` in place (at once, without one); false when `restore` did not
    /// call `body`.
    func run(_ context: CapturedContext?, _ body: () -> Void) -> Bool {
        guard let context else {
            body()
            return true
        }
        var ran = false
        restore(context.value) {
            ran = true
            body()
        }
        return ran
    }

    /// ``run(_:_:)`` for an async `body`, on the caller's executor.
    nonisolated(nonsending) func run(_ context: CapturedContext?, _ body: nonisolated(nonsending) () async -> Void) async -> Bool {
        guard let context else {
            await body()
            return true
        }
        var ran = false
        await restoreAsync(context.value) {
            ran = true
            await body()
        }
        return ran
    }
}

/// Where an item's dispatch context comes from.
enum ContextSource: Sendable {
    /// The store's dispatch context captures it where the item is dispatched.
    case capture
    /// It is given: the context of the work that dispatches it (an observer rule's trigger), or
    /// none.
    case given(GivenContext)
}

/// A context given to a side effect's context (``SideEffectContext/withDispatchContext(_:)``),
/// boxed: a side effect's context holds one reference for it, so that its layout stays the same
/// whether it was given one or not (docs/PERFORMANCE.md, "Dispatch context").
final class GivenContext: Sendable {
    /// The context its dispatches carry; nil for none.
    let context: CapturedContext?

    init(_ context: CapturedContext?) {
        self.context = context
    }
}
