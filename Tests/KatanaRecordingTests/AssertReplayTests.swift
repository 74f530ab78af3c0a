import Foundation
import Katana
import KatanaRecording
import KatanaTesting
import Testing
import XCTest

/// `assertReplay` in Swift Testing: a passing replay reports nothing; a failing one reports the
/// diff at the caller's line.
@Suite struct AssertReplaySwiftTestingTests {
    @Test func aReplayWithNoDifferencePasses() async throws {
        let recording = try await ReplayFixture.recording()
        let report = assertReplay(recording, into: TodoApp.replayStore(), items: TodoApp.replayable)
        #expect(report?.matches == true)
    }

    @Test func aDifferingReplayFailsAtTheCallersLineWithTheDiff() async throws {
        let recording = try await ReplayFixture.recording()
        let failures = TestFailureRecorder()
        let line: UInt = #line + 1
        assertReplay(recording, into: TodoApp.replayStore(), items: [AddTodo.self], renaming: ["AddTodo": ShoutingAddTodo.self], reporter: failures.reporter)
        let failure = try #require(failures.failures.first)
        #expect(failures.failures.count == 1)
        #expect(failure.location.line == line)
        #expect("\(failure.location.fileID)".hasSuffix("AssertReplayTests.swift"))
        #expect(failure.message.contains("after item 1 (line 2)"))
        #expect(failure.message.contains("+       title: \"MILK\"") || failure.message.contains("\"MILK\""))
    }

    @Test func aReplayThatCannotRunFailsWithTheError() async throws {
        let recording = try await ReplayFixture.recording()
        let failures = TestFailureRecorder()
        assertReplay(recording, into: TodoApp.replayStore(), items: [], reporter: failures.reporter)
        #expect(failures.messages.count == 1)
        #expect(failures.messages.first?.contains("is not in the replay's item types") == true)
    }
}

/// `assertReplay` in XCTest: the same two cases.
final class AssertReplayXCTests: XCTestCase {
    func testAReplayWithNoDifferencePasses() async throws {
        let recording = try await ReplayFixture.recording()
        let report = assertReplay(recording, into: TodoApp.replayStore(), items: TodoApp.replayable)
        XCTAssertEqual(report?.matches, true)
    }

    func testADifferingReplayFailsAtTheCallersLine() async throws {
        let recording = try await ReplayFixture.recording()
        let failures = TestFailureRecorder()
        let line: UInt = #line + 1
        assertReplay(recording, into: TodoApp.replayStore(), items: [AddTodo.self], renaming: ["AddTodo": ShoutingAddTodo.self], reporter: failures.reporter)
        XCTAssertEqual(failures.failures.count, 1)
        XCTAssertEqual(failures.failures.first?.location.line, line)
        XCTAssertTrue(failures.failures.first?.message.contains("\"MILK\"") == true)
    }
}

enum ReplayFixture {
    /// One updater, recorded.
    static func recording() async throws -> Recording<TodoState> {
        let flight = FlightRecorder<TodoState>(capacity: 10)
        let store = TodoStore(interceptors: Interceptors { StoreRecorder(to: flight) })
        try await store.dispatchRecorded(AddTodo(title: "milk"))
        return try Recording<TodoState>(data: flight.recordingData())
    }
}

/// A rewrite of `AddTodo` that changes what it adds.
struct ShoutingAddTodo: StateUpdater, Codable {
    var title: String
    var priority = 0
    func updateState(_ state: inout TodoState) {
        state.todos.append(.init(title: title.uppercased(), priority: priority))
    }
}
