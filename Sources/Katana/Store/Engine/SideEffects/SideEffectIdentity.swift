/// What a running async side effect is cancelled by: its ``AsyncSideEffect/cancellationID``, and
/// whether starting it cancels the running ones with the same id. An object, so that "no identity"
/// is a nil reference (docs/PERFORMANCE.md, "Cancellation").
final class SideEffectIdentity: Sendable {
    let id: SideEffectID
    let cancelsInFlight: Bool

    init(id: SideEffectID, cancelsInFlight: Bool) {
        self.id = id
        self.cancelsInFlight = cancelsInFlight
    }
}
