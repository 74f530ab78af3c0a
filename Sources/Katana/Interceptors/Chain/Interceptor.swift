/// An interceptor written as a value: the fast form of ``StoreInterceptor``, with the same rules.
///
/// It sees every item dispatched to a store before the store handles it. Pass the item on with
/// `try next(item)`, pass another item instead, pass nothing (the item is blocked), throw (the item
/// is rejected with the error), or keep `next` and call it later. Interceptors are composed with
/// ``Interceptors``, and joined once, when the store starts, into one chain of calls: passing an
/// item from one interceptor to the next is one call, with no conversion on the way.
///
/// ```swift
/// struct AuditTrail: Interceptor {
///     let audit: Audit
///
///     func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
///         audit.record(item)
///         try next(item)
///     }
/// }
///
/// let store = Store<AppState, AppDependencies>(interceptors: Interceptors {
///     AuditTrail(audit: audit)
///     DispatchableLogger.interceptor()   // a closure interceptor: the two forms mix
/// })
/// ```
public protocol Interceptor: Sendable {
    /// Prepares the interceptor for one store when that store starts: its state exists and it has
    /// handled nothing yet (where Katana calls a closure interceptor with the context). Each store
    /// starts its own copy, so what this keeps belongs to that store. Does nothing by default.
    mutating func start(in context: any AnySideEffectContext)

    /// Joins this interceptor to `next`, what follows it in the chain, once every interceptor has
    /// started; returns what the interceptor before it calls. By default, a `next` that runs
    /// ``intercept(_:next:)`` with `next`; compositions of interceptors join their parts.
    func connect(to next: InterceptorNext) -> InterceptorNext

    /// Looks at `item` before the store handles it; calls `next` to pass it, or another item, on.
    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws
}

extension Interceptor {
    /// Does nothing: an interceptor that needs no store of its own.
    @inlinable
    public mutating func start(in context: any AnySideEffectContext) {}

    /// A `next` that runs this interceptor with `next`.
    @inlinable @inline(never)
    public func connect(to next: InterceptorNext) -> InterceptorNext {
        let interceptor = self
        return InterceptorNext { item in try interceptor.intercept(item, next: next) }
    }

    /// This interceptor in Katana's closure form, for code that takes a ``StoreInterceptor`` (an
    /// array of closure interceptors, a 2.x bridge): each store that runs the closure starts its own
    /// copy with its context, then joins it to the `next` it is given, once.
    public var storeInterceptor: StoreInterceptor {
        let value = self
        return { context in
            var started = value
            started.start(in: context)
            let interceptor = started
            return { next in interceptor.connect(to: InterceptorNext(next)).proceed }
        }
    }
}

/// What an ``Interceptor`` calls to pass an item on: the next interceptor or, after the last, the
/// store. It may be kept and called later, from any thread, as a closure interceptor's `next` may.
public struct InterceptorNext: Sendable {
    @usableFromInline
    let proceed: StoreInterceptorNext

    /// A `next` that calls `proceed`.
    @inlinable
    public init(_ proceed: @escaping StoreInterceptorNext) {
        self.proceed = proceed
    }

    /// Passes `item` on; throws what a later interceptor throws.
    @inlinable
    public func callAsFunction(_ item: any Dispatchable) throws {
        try proceed(item)
    }
}
