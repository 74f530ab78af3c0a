import Katana

/// Builds the Katana 2.x middleware that logs every dispatched item.
@available(*, deprecated, message: "Use DispatchableLogger.interceptor(blackList:sink:)")
public enum ActionLogger {
    /// A middleware that writes `[Action]: <description>` for every item whose type is not in
    /// `blackList`, once the item has been passed on; `sink` receives the lines (standard output by default).
    public static func middleware(
        blackList: [any Dispatchable.Type] = [],
        sink: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> StoreMiddleware {
        let skipped = Set(blackList.map { ObjectIdentifier($0) })
        return { _, _ in
            { next in
                { item in
                    next(item)
                    if !skipped.contains(ObjectIdentifier(type(of: item))) {
                        sink("[Action]: \(item.debugDescription)")
                    }
                }
            }
        }
    }
}
