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
        let skipped = Set(blackList.map { ObjectIdentifier($0) })
        return { _ in
            { next in
                { item in
                    if !skipped.contains(ObjectIdentifier(type(of: item))) {
                        sink("[Katana] dispatched \(item.debugDescription)")
                    }
                    try next(item)
                }
            }
        }
    }
}
