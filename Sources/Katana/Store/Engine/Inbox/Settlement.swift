/// How a handled item's promise is to be settled. Handlers return one instead of settling, so that
/// an item that went through interceptors settles only once they have all returned, as in Katana 6
/// (code after `wait`, or in `then`, sees what the interceptors did after `next`).
enum Settlement {
    /// A state updater was applied: the promise is fulfilled.
    case done
    /// The item's outcome: its value, or the error it failed with.
    case result(Result<any Sendable, any Error>)

    /// The outcome of a failure.
    static func failure(_ error: any Error) -> Settlement {
        .result(.failure(error))
    }
}

extension Envelope {
    /// Settles the promise as `settlement` says.
    func settle(_ settlement: Settlement) {
        guard let promise else { return }
        switch settlement {
        case .done:
            promise.settleDone(replacing: item)
        case .result(let outcome):
            promise.settle(erased: outcome, replacing: item)
        }
    }
}
