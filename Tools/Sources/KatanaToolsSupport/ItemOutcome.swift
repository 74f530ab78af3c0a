import Katana

/// How the store dealt with an item, as an interceptor learns it once `next` returns or throws: a
/// log line's `outcome` and a metric's `outcome` dimension.
package enum ItemOutcome: String, Sendable {
    /// Passed on to the store (by this interceptor's `next`).
    case handled
    /// Not passed on by a later interceptor, which did not throw.
    case blocked
    /// A later interceptor threw before passing the item on.
    case rejected

    /// The outcome of the item being intercepted, once `next` has returned.
    package static var afterNext: ItemOutcome {
        InterceptedItem.currentHasReachedStore == false ? .blocked : .handled
    }

    /// The outcome of the item being intercepted, once `next` has thrown: an error thrown after the
    /// item was passed on does not undo its handling, which the store counts as handled.
    package static var afterThrow: ItemOutcome {
        InterceptedItem.currentHasReachedStore == true ? .handled : .rejected
    }
}
