import Katana

/// The store's state as a state rule sees it: the value (type-erased) and, for the duration of the
/// rule's call only, a pointer to it, so a rule that reads one field reads it in place.
@usableFromInline
struct StateView {
    /// The state, type-erased.
    @usableFromInline
    let state: any State
    /// Where the state's value is; valid only during the call the view is passed to.
    @usableFromInline
    let pointer: UnsafeRawPointer

    /// Calls `body` with a view of `state`, opening the existential once for all the rules.
    static func with<Result>(_ state: any State, _ body: (StateView) -> Result) -> Result {
        func open<Opened: State>(_ opened: Opened) -> Result {
            Unsafe.withPointer(to: opened) { body(StateView(state: state, pointer: $0)) }
        }
        return open(state)
    }
}
