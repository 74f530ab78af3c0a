import Katana
import KatanaTesting
import Testing

/// A test store made without a reporter reports to Swift Testing, as issues at the line of the
/// failing step; `withKnownIssue` catches them here, and fails the test if they do not come.
@Suite struct TestStoreDefaultReporterTests {
    @Test func send_withTheDefaultReporter_recordsAnIssueWithTheDiff_atTheSendsLine() async {
        let sendLine = #line + 3
        await withKnownIssue {
            let store = TestStore<Counting, CountingDependencies>(initialState: Counting())
            await store.send(Add(amount: 2)) { $0.counter = 3 }
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue) == [addOfTwoExpectedThreeDiff]
                && issue.sourceLocation?.line == sendLine
                && issue.sourceLocation?.fileID == #fileID
        }
    }

    @Test func finish_withTheDefaultReporter_recordsAnIssueAtTheFinishLine() async {
        let finishLine = #line + 4
        await withKnownIssue {
            let store = TestStore<Counting, CountingDependencies>(initialState: Counting())
            await store.send(AddNow(amount: 1)) { $0.counter = 1 }
            await store.finish()
        } matching: { issue in
            issue.comments.map(\.rawValue) == [
                leftBehind + oneUnassertedAdd,
            ] && issue.sourceLocation?.line == finishLine
        }
    }

    @Test func aCleanTest_withTheDefaultReporter_recordsNoIssue() async {
        let store = TestStore<Counting, CountingDependencies>(initialState: Counting())
        await store.send(AddNow(amount: 1)) { $0.counter = 1 }
        await store.receive(Add.self) { $0.counter = 1 }
        await store.finish()
    }
}
