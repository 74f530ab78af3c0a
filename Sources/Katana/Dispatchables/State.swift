/// The single value that describes everything an application or service knows.
///
/// A state is a value type the store owns; the only way to change it is to dispatch a
/// ``StateUpdater``. `init()` builds the state the store starts from when no state initializer
/// is given.
public protocol State: Sendable {
    /// Creates the default (initial) state.
    init()
}
