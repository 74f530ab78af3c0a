import Foundation
import Katana

/// An item dispatched when the store starts, if its initialiser returns a value.
public protocol OnStartObserverDispatchable: Dispatchable {
    /// Creates the item, or returns nil to dispatch nothing.
    init?()
}

/// An item dispatched after a state change an observer rule matched, built from the states around it.
public protocol StateObserverDispatchable: Dispatchable {
    /// Creates the item from the state before and after the change, or returns nil to dispatch nothing.
    init?(prevState: any State, currentState: any State)
}

/// An item dispatched after the store handled an item of an observed type.
public protocol DispatchObserverDispatchable: Dispatchable {
    /// Creates the item from the handled item and the states before and after it, or returns nil to dispatch nothing.
    init?(dispatchedItem: any Dispatchable, prevState: any State, currentState: any State)
}

/// An item dispatched when an observed notification is posted.
public protocol NotificationObserverDispatchable: Dispatchable {
    /// Creates the item from the notification, or returns nil to dispatch nothing.
    init?(notification: Notification)
}
