import Katana

extension TestStore {
    /// Dispatches `item`, waits until the store has handled it and settled, and checks the state:
    /// the state before the item, changed by `updateExpectedState`, must equal the state after it
    /// (see the type's description; with ``Exhaustivity/off`` only what the closure sets is
    /// compared). Returns the dispatch's promise.
    ///
    /// With ``Exhaustivity/on``, every item received before must have been asserted first.
    @discardableResult
    public func send<Item: Dispatchable>(
        _ item: Item,
        assert updateExpectedState: ((_ state: inout S) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Promise<any Sendable> {
        let location = TestSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let name = String(reflecting: Item.self)
        if !(await settle()) {
            fail("Before sending \(name), the store did not settle within \(timeout): \(busyDescription())", at: location)
        }
        dealWithUnasserted(before: "sending \(name)", at: location)
        log.withLock { $0.expectSend(of: Item.self) }
        let promise = store.anyDispatch(item)
        sends.withLock { $0.append(Sent(typeName: name, promise: promise, location: location)) }
        let settled = await settle()
        guard let handled = log.withLock({ $0.takeSent() }) else {
            log.withLock { $0.abandonSend() }
            let why = promise.isPending
                ? "the store did not begin to handle it within \(timeout)"
                : "the store did not handle it: \(await Self.outcome(of: promise))"
            fail("\(name) was sent, but \(why).", at: location)
            return promise
        }
        if !settled {
            fail("After sending \(name), the store did not settle within \(timeout): \(busyDescription())", at: location)
        }
        switch handled.outcome {
        case .blocked:
            fail("\(name) was sent, but an interceptor returned without passing it on, so the store did not handle it.", at: location)
        case .rejected(let error):
            fail("\(name) was sent, but it was rejected: \(error)", at: location)
        case .handled, .inProgress:
            // A side effect's state is the state it left once settled: after what it dispatched.
            let actual = handled.isSideEffect ? store.state : (handled.stateAfter ?? store.state)
            check(before: handled.stateBefore, actual: actual, updateExpectedState, after: "sending \(name)", at: location)
        }
        return promise
    }

    /// How a settled promise settled, for messages.
    private static func outcome(of promise: Promise<any Sendable>) async -> String {
        do {
            _ = try await promise.value
            return "its promise was fulfilled"
        } catch {
            return "its promise was rejected with \(error)"
        }
    }
}
