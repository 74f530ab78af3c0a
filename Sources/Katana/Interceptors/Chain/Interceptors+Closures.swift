extension Interceptors {
    /// Katana's closure interceptors inside a chain. Each closure is called with the store's
    /// context when the store starts (in order) and with what follows it when the chain is joined
    /// (the last first), once per store; every item then runs through the closures they returned.
    public struct Closures: Interceptor {
        @usableFromInline
        let interceptors: [StoreInterceptor]
        /// After start: what each closure returned for the store's context.
        @usableFromInline
        var stages: Stages?

        /// `interceptors`, in order.
        @inlinable
        public init(_ interceptors: [StoreInterceptor]) {
            self.interceptors = interceptors
        }

        /// Calls each closure with the store's context, in order.
        public mutating func start(in context: any AnySideEffectContext) {
            stages = Stages(interceptors, context: context)
        }

        /// Calls each closure's stage with what follows it, the last one first.
        public func connect(to next: InterceptorNext) -> InterceptorNext {
            guard let stages else { return next }
            return InterceptorNext(stages.join(to: next.proceed))
        }

        /// Runs the item through the closures, joined to `next` for this call (the store joins
        /// them once, with ``connect(to:)``).
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try connect(to: next)(item)
        }
    }

    /// Closure interceptors started for one store: what each one's outer closure returned for
    /// the store's context, joined once to what follows them.
    @usableFromInline
    // @unchecked: its one stored property is a constant array of middle closures (Katana's type for
    // them is not `Sendable`), called only while the store that made it starts, on that thread.
    final class Stages: @unchecked Sendable {
        private let middles: [(@escaping StoreInterceptorNext) -> StoreInterceptorNext]

        /// Calls each interceptor's outer closure with `context`, in order.
        init(_ interceptors: [StoreInterceptor], context: any AnySideEffectContext) {
            middles = Self.start(interceptors, context: context)
        }

        /// Calls each middle closure with what follows it, the last one first.
        func join(to end: @escaping StoreInterceptorNext) -> StoreInterceptorNext {
            Self.join(middles, to: end)
        }

        // Both generic and never specialised: a closure taken from an array of closures has the
        // array's (most general) representation, and so do the steps it takes and returns. Kept
        // generic, the steps go from level to level in that representation; made concrete, each
        // level's step would be wrapped in two more conversions (docs/PERFORMANCE.md, "Updaters:
        // 10 pass-through interceptors").

        @_semantics("optimize.sil.specialize.generic.never")
        private static func start<Step>(
            _ interceptors: [@Sendable (any AnySideEffectContext) -> (Step) -> Step],
            context: any AnySideEffectContext
        ) -> [(Step) -> Step] {
            interceptors.map { $0(context) }
        }

        @_semantics("optimize.sil.specialize.generic.never")
        private static func join<Step>(_ middles: [(Step) -> Step], to end: Step) -> Step {
            var following = end
            for middle in middles.reversed() {
                following = middle(following)
            }
            return following
        }
    }

    public struct Group: Interceptor {
        @usableFromInline
        let interceptors: Interceptors
        /// After start: the group's chain, started, waiting to be joined.
        @usableFromInline
        var started: (@Sendable (InterceptorNext) -> InterceptorNext)?

        /// `interceptors`, as one step of the chain.
        @inlinable
        public init(_ interceptors: Interceptors) {
            self.interceptors = interceptors
        }

        /// Starts the group's interceptors, in order.
        public mutating func start(in context: any AnySideEffectContext) {
            started = interceptors.start(context)
        }

        /// The group's chain joined to `next`.
        public func connect(to next: InterceptorNext) -> InterceptorNext {
            started?(next) ?? next
        }

        /// Runs the item through the group's interceptors.
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try connect(to: next)(item)
        }
    }
}
