import Katana
import KatanaTesting
import Testing

/// `send`: the state check after updaters and side effects, the checks before sending, items an
/// interceptor blocks or rejects, assertions that throw, and the returned promise.
@Suite struct TestStoreSendTests {
    // MARK: Updaters

    @Test func send_anUpdaterWithTheWrongExpectation_failsWithADiff_atTheCallersLine() async {
        let line: UInt = #line + 2
        let (_, recorder) = await finishedTestStore { store in
            await store.send(Add(amount: 2)) { $0.counter = 3 }
        }
        #expect(recorder.messages == [addOfTwoExpectedThreeDiff])
        #expect(recorder.failures.map(\.location.line) == [line])
        #expect(recorder.failures.map(\.location.fileID.description) == [#fileID])
        #expect(recorder.failures.map(\.severity) == [.failure])
    }

    // MARK: Side effects

    @Test func send_anAsyncSideEffectThatSuspendsOnTheClock_checksTheStateAtTheSuspension() async {
        let (_, recorder) = await finishedTestStore { store in
            // Suspended in its sleep: nothing dispatched yet, so the state is unchanged.
            await store.send(LoadAmount())
            #expect(store.clock.sleepers.count == 1)
            await store.advance(by: .seconds(1))
            await store.receive(Add.self) { $0.counter = 41 }
        }
        #expect(recorder.messages == [])
    }

    // MARK: Before sending

    @Test func send_withAnUnassertedReceivedItem_failsBeforeSending_thenStillSends() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        let line: UInt = #line + 1
        await store.send(Note(text: "next")) {
            $0.counter = 1
            $0.log = ["next"]
        }
        #expect(recorder.takeAll().map { "\($0.location.line): \($0.message)" } == [
            "\(line): Before sending KatanaTestingTests.Note, receive must assert 1 received item: KatanaTestingTests.Add (#1)",
        ])
        await store.receive(Add.self) { $0.counter = 1 }
        await store.finish()
        #expect(recorder.messages == [])
    }

    @Test func send_withTwoUnassertedReceivedItems_listsBoth() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder)
        await store.send(NoteThenAdd(text: "a", amount: 2)) {
            $0.counter = 2
            $0.log = ["a"]
        }
        await store.send(Add(amount: 1)) {
            $0.counter = 3
            $0.log = ["a"]
        }
        #expect(recorder.takeAll().map(\.message) == [
            "Before sending KatanaTestingTests.Add, receive must assert 2 received items: KatanaTestingTests.Note (#1), KatanaTestingTests.Add (#2)",
        ])
        await store.skipReceivedItems()
        await store.finish()
        #expect(recorder.messages == [])
    }

    // MARK: Blocked and rejected items

    @Test func send_anItemAnInterceptorDoesNotPassOn_failsAsBlocked() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [blocking(amount: 99)])
        let line: UInt = #line + 1
        await store.send(Add(amount: 99))
        #expect(recorder.takeAll().map { "\($0.location.line): \($0.message)" } == [
            "\(line): KatanaTestingTests.Add was sent, but an interceptor returned without passing it on, so the store did not handle it.",
        ])
        #expect(store.state == Counting())
        // Other items still pass.
        await store.send(Add(amount: 1)) { $0.counter = 1 }
        #expect(recorder.takeAll().map(\.message) == [])
    }

    @Test func send_anItemAnInterceptorRejects_failsAsRejected_withTheError() async {
        let recorder = TestFailureRecorder()
        let store = makeTestStore(recorder: recorder, interceptors: [rejecting(amount: 13)])
        let promise = await store.send(Add(amount: 13))
        await store.finish()
        #expect(recorder.messages == [
            "KatanaTestingTests.Add was sent, but it was rejected: refused: no 13",
        ])
        #expect(store.state == Counting())
        await #expect(throws: Refused.self) { try await promise.value }
    }

    // MARK: The promise

    @Test func send_returnsTheDispatchPromise_withTheSideEffectsValue() async throws {
        let (_, recorder) = try await finishedTestStore { store throws in
            await store.send(Add(amount: 7)) { $0.counter = 7 }
            let promise = await store.send(ReadCounter())
            #expect(!promise.isPending)
            #expect(try await promise.value as? Int == 7)
        }
        #expect(recorder.messages == [])
    }

    @Test func send_ofAnAsyncSideEffect_returnsAPromiseThatSettlesWhenItsBodyEnds() async throws {
        let (_, recorder) = try await finishedTestStore { store in
            let promise = await store.send(LoadAmount())
            #expect(promise.isPending)
            await store.advance(by: .seconds(1))
            await store.receive(Add.self) { $0.counter = 41 }
            _ = try await promise.value
        }
        #expect(recorder.messages == [])
    }

    // MARK: What is recorded

    @Test func handledItems_listEverythingInOrder_withOriginsAndStates() async {
        let (store, recorder) = await finishedTestStore { store in
            await store.send(Add(amount: 1)) { $0.counter = 1 }
            await store.send(AddNow(amount: 2)) { $0.counter = 3 }
            await store.receive(Add.self) { $0.counter = 3 }
        }
        let items = store.handledItems
        #expect(items.map(\.index) == [0, 1, 2])
        #expect(items.map(\.origin) == [.sent, .sent, .received])
        #expect(items.map(\.isSideEffect) == [false, true, false])
        #expect(items.map(\.stateBefore.counter) == [0, 1, 1])
        #expect(items.map { $0.stateAfter?.counter } == [1, 3, 3])
        #expect(recorder.messages == [])
    }
}
