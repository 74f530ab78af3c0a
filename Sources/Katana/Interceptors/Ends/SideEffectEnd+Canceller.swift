extension SideEffectEnd.Canceller {
    /// The error the cancelled side effect's promise is rejected with.
    func error(for itemType: any Dispatchable.Type) -> KatanaError {
        switch self {
        case .promise, .id, .latestWins: .cancelled(item: typeName(itemType))
        case .shutdown: .cancelledByShutdown(item: typeName(itemType))
        }
    }

    /// The canceller as a byte, for a job's atomic record (0 is "not cancelled").
    var code: UInt8 {
        switch self {
        case .promise: 1
        case .id: 2
        case .latestWins: 3
        case .shutdown: 4
        }
    }

    /// The canceller a job's record holds; nil for 0 (not cancelled).
    init?(code: UInt8) {
        switch code {
        case 1: self = .promise
        case 2: self = .id
        case 3: self = .latestWins
        case 4: self = .shutdown
        default: return nil
        }
    }
}
