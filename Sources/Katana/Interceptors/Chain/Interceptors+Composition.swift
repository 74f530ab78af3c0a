// The pieces ``InterceptorsBuilder`` composes a chain from. Each joins its parts once, when the
// store starts (``Interceptor/connect(to:)``); the store then runs the joined chain, never
// ``Interceptor/intercept(_:next:)`` of a composition, which joins the rest of it per call.
// Every method is inlinable, so that a chain is joined by code specialised for its types.

extension Interceptors {
    /// No interceptor: every item passes (an empty block).
    public struct Empty: Interceptor {
        /// Nothing to hold.
        @inlinable
        public init() {}

        /// What follows, unchanged.
        @inlinable
        public func connect(to next: InterceptorNext) -> InterceptorNext {
            next
        }

        /// Passes the item on.
        @inlinable
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try next(item)
        }
    }

    /// Two interceptors, one after the other.
    public struct Pair<First: Interceptor, Second: Interceptor>: Interceptor {
        @usableFromInline
        var first: First
        @usableFromInline
        var second: Second

        /// `first`, then `second`.
        @inlinable
        public init(_ first: First, _ second: Second) {
            self.first = first
            self.second = second
        }

        /// Starts `first`, then `second`.
        @inlinable
        public mutating func start(in context: any AnySideEffectContext) {
            first.start(in: context)
            second.start(in: context)
        }

        /// Joins `second` to `next`, then `first` to `second`.
        @inlinable
        public func connect(to next: InterceptorNext) -> InterceptorNext {
            first.connect(to: second.connect(to: next))
        }

        /// Runs `first`, whose `next` runs `second`.
        @inlinable
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try first.intercept(item, next: second.connect(to: next))
        }
    }

    /// An interceptor that an `if` without `else` may leave out.
    public struct IfPresent<Wrapped: Interceptor>: Interceptor {
        @usableFromInline
        var wrapped: Wrapped?

        /// `wrapped`, or no interceptor.
        @inlinable
        public init(_ wrapped: Wrapped?) {
            self.wrapped = wrapped
        }

        /// Starts the interceptor, if there is one.
        @inlinable
        public mutating func start(in context: any AnySideEffectContext) {
            wrapped?.start(in: context)
        }

        /// The interceptor joined to `next`, or `next` itself.
        @inlinable
        public func connect(to next: InterceptorNext) -> InterceptorNext {
            wrapped?.connect(to: next) ?? next
        }

        /// Runs the interceptor, or passes the item on when there is none.
        @inlinable
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try connect(to: next)(item)
        }
    }

    /// The interceptor of whichever branch of an `if`/`else` or `switch` was taken.
    public enum Either<First: Interceptor, Second: Interceptor>: Interceptor {
        /// The first branch's.
        case first(First)
        /// The second branch's.
        case second(Second)

        /// Starts the branch's interceptor.
        @inlinable
        public mutating func start(in context: any AnySideEffectContext) {
            switch self {
            case .first(var interceptor):
                interceptor.start(in: context)
                self = .first(interceptor)
            case .second(var interceptor):
                interceptor.start(in: context)
                self = .second(interceptor)
            }
        }

        /// The branch's interceptor joined to `next`.
        @inlinable
        public func connect(to next: InterceptorNext) -> InterceptorNext {
            switch self {
            case .first(let interceptor):
                interceptor.connect(to: next)
            case .second(let interceptor):
                interceptor.connect(to: next)
            }
        }

        /// Runs the branch's interceptor.
        @inlinable
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try connect(to: next)(item)
        }
    }

    /// A `for` loop's interceptors, one after the other.
    public struct Each<Element: Interceptor>: Interceptor {
        @usableFromInline
        var elements: [Element]

        /// `elements`, in order.
        @inlinable
        public init(_ elements: [Element]) {
            self.elements = elements
        }

        /// Starts each interceptor, in order.
        @inlinable
        public mutating func start(in context: any AnySideEffectContext) {
            for index in elements.indices {
                elements[index].start(in: context)
            }
        }

        /// Joins each interceptor to the ones after it, the last first.
        @inlinable
        public func connect(to next: InterceptorNext) -> InterceptorNext {
            elements.reversed().reduce(next) { following, element in element.connect(to: following) }
        }

        /// Runs the interceptors in order.
        @inlinable
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            try connect(to: next)(item)
        }
    }
}
