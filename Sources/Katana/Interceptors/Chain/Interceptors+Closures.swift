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
            stages = Stages(interceptors.map { Stage($0(context)) })
        }

        /// Calls each closure's stage with what follows it, the last one first.
        public func connect(to next: InterceptorNext) -> InterceptorNext {
            guard let stages else { return next }
            var following = next.proceed
            for stage in stages.stages.reversed() {
                following = stage.apply(following)
            }
            return InterceptorNext(following)
        }

        /// Runs the item through the closures, joined to `next` for this call (the store joins
        /// them once, with ``connect(to:)``).
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try connect(to: next)(item)
        }
    }

    /// What closure interceptors return for the store's context, kept until they are joined.
    @usableFromInline
    final class Stages: @unchecked Sendable {
        // @unchecked: made by `start` and read by `connect`, both during the store's start-up on
        // the one thread that starts it, before the chain is shared with any other thread.
        let stages: [Stage]

        init(_ stages: [Stage]) {
            self.stages = stages
        }
    }

    /// What one closure interceptor returned for the store's context. A class's stored closure
    /// keeps its own calling convention; in an array of closures it would not, and every item
    /// would then pay for a conversion at each level (docs/PERFORMANCE.md, "Interceptors as values").
    final class Stage {
        let apply: (@escaping StoreInterceptorNext) -> StoreInterceptorNext

        init(_ apply: @escaping (@escaping StoreInterceptorNext) -> StoreInterceptorNext) {
            self.apply = apply
        }
    }

    /// Another ``Interceptors`` value inside a chain, run where it is written.
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
