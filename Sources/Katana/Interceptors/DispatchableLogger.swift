/// An interceptor that writes a line for every dispatched item, except the types it is told to skip.
public enum DispatchableLogger {
    /// Builds the logging interceptor.
    ///
    /// - Parameters:
    ///   - blackList: item types that are not logged.
    ///   - sink: where each line goes; by default standard output. Pass your logger's function to
    ///     route the lines into a service's own log.
    public static func interceptor(
        blackList: [any Dispatchable.Type] = [],
        sink: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> StoreInterceptor {
        Logging(blackList: blackList, sink: sink).storeInterceptor
    }

    /// The logging interceptor as a value, for ``Interceptors``: the same lines as
    /// ``interceptor(blackList:sink:)``.
    public static func logging(
        blackList: [any Dispatchable.Type] = [],
        sink: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> Logging {
        Logging(blackList: blackList, sink: sink)
    }

    /// Writes a line for every item whose type is not skipped, then passes the item on.
    public struct Logging: Interceptor {
        private let skipped: Set<ObjectIdentifier>
        private let sink: @Sendable (String) -> Void

        init(blackList: [any Dispatchable.Type], sink: @escaping @Sendable (String) -> Void) {
            skipped = Set(blackList.map { ObjectIdentifier($0) })
            self.sink = sink
        }

        /// Logs `item` unless its type is skipped, then passes it on.
        public func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
            if !skipped.contains(ObjectIdentifier(type(of: item))) {
                sink("[Katana] dispatched \(item.debugDescription)")
            }
            try next(item)
        }
    }
}
