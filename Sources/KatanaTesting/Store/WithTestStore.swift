import Katana

/// Runs `body` with `store`, then ``TestStore/finish(fileID:filePath:line:column:)``, also when
/// `body` throws: the scoped form for Swift Testing, whose tests have no tear-down.
///
/// ```swift
/// @Test func counting() async throws {
///     try await withTestStore(TestStore<CounterState, AppDependencies>(initialState: CounterState())) { store in
///         await store.send(Increment()) { $0.counter = 1 }
///     }
/// }
/// ```
public func withTestStore<S: State, D: SideEffectDependencyContainer, Result>(
    _ store: TestStore<S, D>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (TestStore<S, D>) async throws -> Result
) async rethrows -> Result {
    do {
        let result = try await body(store)
        await store.finish(fileID: fileID, filePath: filePath, line: line, column: column)
        return result
    } catch {
        await store.finish(fileID: fileID, filePath: filePath, line: line, column: column)
        throw error
    }
}
