/// What an interceptor can learn about the item it is looking at, besides the item itself: where
/// it comes from and its place in dispatch order.
///
/// ```swift
/// struct OriginLog: Interceptor {
///     func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
///         if let current = InterceptedItem.current {
///             print("#\(current.sequence) \(type(of: item)) from \(current.origin)")
///         }
///         try next(item)
///     }
/// }
/// ```
public struct InterceptedItem: Sendable, Hashable {
    /// Where the item comes from.
    public let origin: DispatchOrigin
    /// The item's place in dispatch order, counted by its store from 0: what the
    /// ``DispatchOrigin/sideEffect(type:sequence:)`` origin of the items a side effect dispatches
    /// refers to. An item an interceptor passes on in place of another takes that one's place.
    public let sequence: UInt64
    /// Whether the item, or an item passed on in its place, has reached the store in this run, as
    /// of when ``current`` was read: read after `next` returns, false says that a later
    /// interceptor did not pass it on (it is blocked).
    public let hasReachedStore: Bool

    /// A description of an intercepted item (for tests of interceptors run outside a store).
    public init(origin: DispatchOrigin, sequence: UInt64, hasReachedStore: Bool = false) {
        self.origin = origin
        self.sequence = sequence
        self.hasReachedStore = hasReachedStore
    }

    /// The item the interceptors are running for on this thread, read from inside an interceptor's
    /// `intercept` (or a closure interceptor's innermost closure) while it runs: before and after
    /// it calls `next`. Nil anywhere else (another thread, a listener, code outside a store).
    public static var current: InterceptedItem? {
        InterceptorChain.currentRun
    }

    /// ``current``'s ``hasReachedStore`` alone, without making the rest: what an interceptor on
    /// every item reads after `next` returns. Nil where ``current`` is nil.
    public static var currentHasReachedStore: Bool? {
        InterceptorChain.currentRunHasReachedStore
    }

    /// What the store's ``DispatchContext`` captured when the item the interceptors are running
    /// for was dispatched (the request behind it), read as ``current`` is; nil anywhere else, and
    /// for an item that carries none.
    public static var currentDispatchContext: (any Sendable)? {
        InterceptorChain.currentRunContext
    }

    /// Replaces the dispatch context of the item the interceptors are running for (from inside an
    /// interceptor, before it calls `next`): what later interceptors read, what the item (or the
    /// item passed on in its place) carries on, and what the store restores while it runs a side
    /// effect's body — a tracing interceptor puts the side effect's own span there, so that what
    /// the side effect dispatches nests under it. Returns false, and changes nothing, anywhere else.
    @discardableResult
    public static func setCurrentDispatchContext(_ value: (any Sendable)?) -> Bool {
        InterceptorChain.replaceCurrentRunContext(with: value)
    }
}
