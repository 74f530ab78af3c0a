/// What a running async side effect is cancelled by: its ``AsyncSideEffect/cancellationID``, and
/// whether starting it cancels the running ones with the same id.
struct SideEffectIdentity: Sendable, Equatable {
    let id: SideEffectID
    let cancelsInFlight: Bool
}
