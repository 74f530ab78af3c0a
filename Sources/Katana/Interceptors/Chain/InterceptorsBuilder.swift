/// Composes the block of an ``Interceptors`` value: ``Interceptor`` values, closure interceptors
/// (one, or an array), other ``Interceptors`` values, `if`, `if`/`else`, `switch` and `for`.
@resultBuilder
public enum InterceptorsBuilder {
    /// An interceptor value, as it is.
    @inlinable
    public static func buildExpression<Value: Interceptor>(_ interceptor: Value) -> Value {
        interceptor
    }

    /// A closure interceptor, Katana's form.
    @inlinable
    public static func buildExpression(_ interceptor: @escaping StoreInterceptor) -> Interceptors.Closures {
        Interceptors.Closures([interceptor])
    }

    /// Closure interceptors, in the order given.
    @inlinable
    public static func buildExpression(_ interceptors: [StoreInterceptor]) -> Interceptors.Closures {
        Interceptors.Closures(interceptors)
    }

    /// Another composed chain, run at this place of this one.
    @inlinable
    public static func buildExpression(_ interceptors: Interceptors) -> Interceptors.Group {
        Interceptors.Group(interceptors)
    }

    /// An empty block: every item passes.
    @inlinable
    public static func buildBlock() -> Interceptors.Empty {
        Interceptors.Empty()
    }

    /// The first interceptor of a block.
    @inlinable
    public static func buildPartialBlock<First: Interceptor>(first: First) -> First {
        first
    }

    /// The interceptors so far, then one more.
    @inlinable
    public static func buildPartialBlock<Accumulated: Interceptor, Next: Interceptor>(
        accumulated: Accumulated,
        next: Next
    ) -> Interceptors.Pair<Accumulated, Next> {
        Interceptors.Pair(accumulated, next)
    }

    /// An `if` without `else`.
    @inlinable
    public static func buildOptional<Wrapped: Interceptor>(_ interceptor: Wrapped?) -> Interceptors.IfPresent<Wrapped> {
        Interceptors.IfPresent(interceptor)
    }

    /// The first branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither<First: Interceptor, Second: Interceptor>(first: First) -> Interceptors.Either<First, Second> {
        .first(first)
    }

    /// The second branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither<First: Interceptor, Second: Interceptor>(second: Second) -> Interceptors.Either<First, Second> {
        .second(second)
    }

    /// A `for` loop's interceptors, in order.
    @inlinable
    public static func buildArray<Element: Interceptor>(_ interceptors: [Element]) -> Interceptors.Each<Element> {
        Interceptors.Each(interceptors)
    }
}
