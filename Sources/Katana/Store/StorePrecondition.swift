/// The store's documented programming errors: reading the state when there is no state to read.
///
/// Each stops the process with a message that says what happened and how to fix it, in every
/// build: `fatalError` keeps its message when optimised, where `precondition` drops it.
enum StorePrecondition {
    /// The state was read before the state initializer had run.
    static func stateReadBeforeReady() -> Never {
        fatalError(
            "Katana: the store's state was read before the store was ready. "
                + "Check `isReady` first, or dispatch a side effect: it runs once the store is ready."
        )
    }

    /// The state was read from inside one of the store's own state updaters, while it changes the
    /// state in place.
    static func stateReadInsideOwnUpdater() -> Never {
        fatalError(
            "Katana: the store's state was read from inside one of its own state updaters, while that "
                + "updater is changing it. Use the `inout` state the updater is given, or read the "
                + "state in a side effect, an interceptor or a listener."
        )
    }
}
