import Foundation
import Katana

/// An interceptor that turns events — the store starting, state changes, handled items and
/// notifications — into new dispatches, described as rules.
///
/// Rules are checked after the triggering item was handled; what they dispatch goes through the
/// store like any other item (interceptors included). The work of a state or dispatch rule (its
/// closure or its types' initialisers) runs on the interceptor's own serial queue, so a slow rule
/// never delays state updates: the store's queue only picks out and compares the values rules look
/// at. Notification rules run on the thread that posts the notification.
public enum ObserverInterceptor {
    /// Where reports about rules that cannot apply go by default: standard error.
    public static let standardErrorReporter: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Katana's form: an interceptor for the given rules, observing `notificationCenter`.
    public static func observe(
        _ items: [ObserverType],
        notificationCenter: NotificationCenter = .default
    ) -> StoreInterceptor {
        interceptor(rules: items.map(\.rule), notificationCenter: notificationCenter, reporter: standardErrorReporter)
    }

    /// The declarative form: an interceptor for the rules the builder lists.
    ///
    /// - Parameters:
    ///   - notificationCenter: where `OnNotification` rules listen.
    ///   - reporter: receives one message for each rule that cannot apply to the store it is used
    ///     in (for example an `OnChange` whose key path starts from another state type); such a rule
    ///     never fires. By default the message goes to standard error.
    ///   - rules: the rules, built with ``ObserverRulesBuilder``.
    public static func observe(
        notificationCenter: NotificationCenter = .default,
        reporter: @escaping @Sendable (String) -> Void = standardErrorReporter,
        @ObserverRulesBuilder _ rules: () -> [ObserverRule]
    ) -> StoreInterceptor {
        interceptor(rules: rules(), notificationCenter: notificationCenter, reporter: reporter)
    }

    /// The declarative form as an interceptor value, for ``Interceptors``: the same rules and
    /// behaviour as ``observe(notificationCenter:reporter:_:)``.
    public static func rules(
        notificationCenter: NotificationCenter = .default,
        reporter: @escaping @Sendable (String) -> Void = standardErrorReporter,
        @ObserverRulesBuilder _ rules: () -> [ObserverRule]
    ) -> Rules {
        Rules(rules: rules(), notificationCenter: notificationCenter, reporter: reporter)
    }

    /// Observer rules as an ``Interceptor``: each store that starts it gets its own rule runtime
    /// (its notification observers, its memo of item types), released with the store.
    public struct Rules: Interceptor {
        private let rules: [ObserverRule]
        private let notificationCenter: NotificationCenter
        private let reporter: @Sendable (String) -> Void
        /// The store's runtime, made when the store starts.
        private var runtime: ObserverRuntime?

        init(rules: [ObserverRule], notificationCenter: NotificationCenter, reporter: @escaping @Sendable (String) -> Void) {
            self.rules = rules
            self.notificationCenter = notificationCenter
            self.reporter = reporter
        }

        /// Makes the store's runtime: registers the notification rules and runs the start rules.
        public mutating func start(in context: any AnySideEffectContext) {
            runtime = ObserverRuntime(rules: rules, context: context, center: notificationCenter, reporter: reporter)
        }

        /// Passes the item on, then checks the rules it may trigger.
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            guard let runtime else {
                try next(item)
                return
            }
            try runtime.intercept(item, next: next)
        }
    }

    private static func interceptor(
        rules: [ObserverRule],
        notificationCenter: NotificationCenter,
        reporter: @escaping @Sendable (String) -> Void
    ) -> StoreInterceptor {
        Rules(rules: rules, notificationCenter: notificationCenter, reporter: reporter).storeInterceptor
    }
}
