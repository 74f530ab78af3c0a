import Katana

/// A Katana 2.x action that is created and dispatched automatically after another action, its source.
@available(*, deprecated, message: "Use ObserverInterceptor's .onDispatch rules (KatanaObservers) with a DispatchObserverDispatchable")
public protocol LinkeableAction: Action {
    /// Creates the linked action from the states around the source's update; nil means "do not dispatch".
    init?(oldState: State, newState: State, sourceAction: Action)
}

/// A source action type and the linked action types to dispatch, in order, after it is handled.
@available(*, deprecated, message: "Use ObserverInterceptor.observe([.onDispatch(Source.self, [Linked.self])]) from KatanaObservers")
public struct ActionLinks: Sendable {
    /// The action type whose dispatch triggers the links.
    public let source: any Action.Type
    /// The linked action types, created and dispatched in this order.
    public let links: [any LinkeableAction.Type]

    /// Links `links` to `source`.
    public init(source: any Action.Type, links: [any LinkeableAction.Type]) {
        self.source = source
        self.links = links
    }
}

/// Builds the Katana 2.x middleware that dispatches linked actions after their source.
@available(*, deprecated, message: "Use ObserverInterceptor.observe([.onDispatch(Source.self, [Linked.self])]) from KatanaObservers")
public enum ActionLinker {
    /// A middleware that, after each source action has been handled, creates every linked action from
    /// the states before and after it and dispatches the ones whose initialiser did not return nil.
    ///
    /// Links of the same source are kept in the order given, across all `ActionLinks` values.
    public static func middleware(for links: [ActionLinks]) -> StoreMiddleware {
        var table: [ObjectIdentifier: [any LinkeableAction.Type]] = [:]
        for link in links {
            table[ObjectIdentifier(link.source), default: []].append(contentsOf: link.links)
        }
        let linksBySource = table
        return { getState, dispatch in
            { next in
                { item in
                    guard let linked = linksBySource[ObjectIdentifier(type(of: item))],
                          let source = item as? any Action
                    else {
                        next(item)
                        return
                    }
                    let oldState = getState()
                    next(item)
                    let newState = getState()
                    for type in linked {
                        if let action = type.init(oldState: oldState, newState: newState, sourceAction: source) {
                            dispatch(action)
                        }
                    }
                }
            }
        }
    }
}
