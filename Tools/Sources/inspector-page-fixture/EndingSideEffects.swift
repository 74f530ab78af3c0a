import Foundation
import Katana

// Side effects whose ends the inspector shows: async ones that succeed, fail or are cancelled.

/// A search of the todos' titles against a slow "backend" (a cancellable sleep of
/// `backendMilliseconds`). Latest wins: a newer search cancels those still running.
struct SearchTodos: AsyncSideEffect, Codable {
    var query: String
    var backendMilliseconds: Int

    var cancellationID: SideEffectID? { "search" }
    var cancelsInFlight: Bool { true }

    /// The ids of the todos whose title contains the query.
    func sideEffect(_ context: SideEffectContext<TodoState, EmptySideEffectDependencyContainer>) async throws -> [Int] {
        try await Task.sleep(for: .milliseconds(backendMilliseconds))
        return context.getState().todos.filter { $0.title.localizedCaseInsensitiveContains(query) }.map(\.id)
    }
}

/// Sends the todos to a sync server that is down: it fails after `backendMilliseconds`.
struct SyncTodos: AsyncSideEffect, Codable {
    var backendMilliseconds: Int

    func sideEffect(_ context: SideEffectContext<TodoState, EmptySideEffectDependencyContainer>) async throws {
        try await Task.sleep(for: .milliseconds(backendMilliseconds))
        throw SyncUnavailable()
    }
}

/// What ``SyncTodos`` fails with.
struct SyncUnavailable: Error, CustomStringConvertible {
    var description: String {
        "the sync server answered 503 Service Unavailable"
    }
}

/// A refresh that runs until it is cancelled (`store.cancelSideEffects(id: "refresh")`), for a
/// live page that sees a side effect's end arrive after its row.
struct RefreshTodos: AsyncSideEffect, Codable {
    var cancellationID: SideEffectID? { "refresh" }

    func sideEffect(_ context: SideEffectContext<TodoState, EmptySideEffectDependencyContainer>) async throws {
        try await Task.sleep(for: .seconds(3_600))
    }
}
