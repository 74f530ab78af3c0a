import Katana

/// Why a Swift Flow call could not do what it was asked.
@available(*, deprecated, message: "Dispatch items instead of action creators (items dispatched before the store is ready wait for it)")
public enum SwiftFlowError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An action creator was dispatched to a store whose state initializer has not finished, so
    /// there was no state to call it with; it was not called and nothing was dispatched.
    case storeNotReady

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .storeNotReady:
            return "An action creator was dispatched to a store that is not ready yet (its state initializer "
                + "runs asynchronously and has not finished), so there was no state to call it with. "
                + "Dispatch the creator once store.isReady is true, or dispatch the item itself: items "
                + "dispatched before the store is ready wait and run afterwards."
        }
    }
}
