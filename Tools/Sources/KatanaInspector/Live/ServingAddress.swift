import Foundation

/// The address a server ends up serving at, for those who wait for it: unknown until the server
/// listens (or fails to), then settled once.
final class ServingAddress: Sendable {
    private enum Phase {
        case waiting([CheckedContinuation<URL, any Error>])
        case settled(Result<URL, any Error>)
    }

    private let phase = Locked(Phase.waiting([]))

    /// The address, once known; throws what stopped the server from listening.
    func value() async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            let settled: Result<URL, any Error>? = phase.withLock { phase in
                switch phase {
                case .waiting(var waiting):
                    waiting.append(continuation)
                    phase = .waiting(waiting)
                    return nil
                case .settled(let result):
                    return result
                }
            }
            if let settled { continuation.resume(with: settled) }
        }
    }

    /// Settles the address (the first call wins) and wakes those waiting.
    func settle(_ result: Result<URL, any Error>) {
        let waiting: [CheckedContinuation<URL, any Error>] = phase.withLock { phase in
            guard case .waiting(let waiting) = phase else { return [] }
            phase = .settled(result)
            return waiting
        }
        for continuation in waiting {
            continuation.resume(with: result)
        }
    }
}
