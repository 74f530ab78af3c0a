import Testing
@testable import Katana
import KatanaTestSupport

/// The form in which a test gives its interceptors to the store: every interceptor semantics test
/// runs once per form, since the two forms promise the same behaviour.
enum InterceptorForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Katana's closure form: a `[StoreInterceptor]` given to `Store.init(interceptors:...)`.
    case closures
    /// Every interceptor an ``Interceptor`` value, composed by `Interceptors { for … }`.
    case values
    /// One `Interceptors` block alternating the forms: closures at even positions, values at odd ones.
    case mixed

    var testDescription: String { rawValue }
}

/// What a test interceptor does with each item: gets the store's context (as the interceptor got
/// it when the store started), the item and the next step.
typealias TestInterceptorBody = @Sendable (
    _ context: any AnySideEffectContext,
    _ item: any Dispatchable,
    _ next: @escaping StoreInterceptorNext
) throws -> Void

/// One test interceptor, described once and built in either form: as a closure interceptor
/// (``closure``) or as an ``Interceptor`` value (``value``), both running the same body.
struct InterceptorSpec: Sendable {
    /// Called once per store when the interceptor starts: with the closure form's context, or in
    /// the value form's `start(in:)`.
    let onStart: @Sendable (any AnySideEffectContext) -> Void
    /// What the interceptor does with each item.
    let body: TestInterceptorBody

    /// An interceptor whose body gets each item and the next step (as Fixtures' `interceptor`).
    init(
        onStart: @escaping @Sendable (any AnySideEffectContext) -> Void = { _ in },
        _ body: @escaping @Sendable (any Dispatchable, @escaping StoreInterceptorNext) throws -> Void
    ) {
        self.onStart = onStart
        self.body = { _, item, next in try body(item, next) }
    }

    /// An interceptor whose body also gets the store's context (the value form keeps it from `start(in:)`).
    init(
        onStart: @escaping @Sendable (any AnySideEffectContext) -> Void = { _ in },
        withContext body: @escaping TestInterceptorBody
    ) {
        self.onStart = onStart
        self.body = body
    }

    /// Katana's closure form: the outer closure starts the interceptor with the store's context.
    var closure: StoreInterceptor {
        let onStart = onStart
        let body = body
        return { context in
            onStart(context)
            return { next in
                { item in try body(context, item, next) }
            }
        }
    }

    /// The value form: an ``Interceptor`` that keeps the context its `start(in:)` receives.
    var value: BodyInterceptor {
        BodyInterceptor(onStart: onStart, body: body)
    }
}

/// An ``Interceptor`` value running a test interceptor's body; what ``InterceptorSpec/value`` builds.
struct BodyInterceptor: Interceptor {
    let onStart: @Sendable (any AnySideEffectContext) -> Void
    let body: TestInterceptorBody
    /// The store's context, once this copy has started for a store.
    private(set) var context: (any AnySideEffectContext)?

    init(onStart: @escaping @Sendable (any AnySideEffectContext) -> Void, body: @escaping TestInterceptorBody) {
        self.onStart = onStart
        self.body = body
    }

    /// Keeps the store's context and reports the start.
    mutating func start(in context: any AnySideEffectContext) {
        self.context = context
        onStart(context)
    }

    /// Runs the body with the kept context; `next` is handed on as a closure, as the closure form's is.
    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        guard let context else {
            Issue.record("BodyInterceptor.intercept(_:next:) ran before start(in:)")
            return
        }
        try body(context, item, { item in try next(item) })
    }
}

extension Interceptors {
    /// `specs` built in `form`: as an `Interceptors` block for `.values` and `.mixed` (see
    /// ``InterceptorForm``), or wrapping the closures for `.closures`.
    static func built(from specs: [InterceptorSpec], form: InterceptorForm) -> Interceptors {
        switch form {
        case .closures:
            Interceptors(specs.map(\.closure))
        case .values:
            Interceptors {
                for spec in specs {
                    spec.value
                }
            }
        case .mixed:
            Interceptors {
                for (position, spec) in specs.enumerated() {
                    if position.isMultiple(of: 2) {
                        spec.closure
                    } else {
                        spec.value
                    }
                }
            }
        }
    }
}

/// A test store whose interceptors are `interceptors`, given in `form`: `.closures` goes through
/// Katana's `init(interceptors: [StoreInterceptor], ...)`, the other forms through
/// `init(interceptors: Interceptors, ...)`.
func makeStore(
    interceptors: [InterceptorSpec],
    form: InterceptorForm,
    initial: CounterState = CounterState(),
    configuration: TestStore.Configuration = testConfiguration()
) -> TestStore {
    switch form {
    case .closures:
        TestStore(interceptors: interceptors.map(\.closure), stateInitializer: { initial }, configuration: configuration)
    case .values, .mixed:
        TestStore(
            interceptors: Interceptors.built(from: interceptors, form: form),
            stateInitializer: { initial },
            configuration: configuration
        )
    }
}
