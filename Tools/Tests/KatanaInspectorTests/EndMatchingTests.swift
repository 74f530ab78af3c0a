import Foundation
@testable import KatanaInspector
import KatanaRecording
import Testing

/// How the inspector's history matches side effects' ends to their items by sequence, whichever
/// comes first, and lets them go with their items.
@Suite struct EndMatchingTests {
    @Test func anEndReadBeforeItsItemWaitsAndIsMatchedWhenTheItemArrives() throws {
        var recording = HandWrittenRecording()
        recording.end(7, "succeeded", duration: 0.001244)
        let history = try recording.history()
        #expect(history.end(ofSequence: 7) == nil)
        #expect(history.endCursor == 0)

        try history.read(Data(HandWrittenRecording.itemLine(1, sequence: 7).utf8), number: 3)
        let end = try #require(history.end(ofSequence: 7))
        #expect(end.outcome == .succeeded)
        #expect(end.durationMicroseconds == 1_244)
        #expect(end.began)
        #expect(history.endCursor == 1)
        let (_, items) = history.items(from: 1, limit: 10)
        #expect(history.ends(of: items) == [7: end])
    }

    @Test func anEndReadAfterItsItemIsMatchedAtOnce() throws {
        var recording = HandWrittenRecording()
        recording.item(1, sequence: 3)
        recording.item(2, sequence: 4, type: "App.Add", kind: "updater")
        recording.end(3, "cancelled", "latestWins", duration: 0.0024)
        let history = try recording.history()
        let end = try #require(history.end(ofSequence: 3))
        #expect(end.outcome == .cancelled(by: .latestWins))
        #expect(end.durationMicroseconds == 2_400)
        #expect(end.detail == "latestWins")
        #expect(history.end(ofSequence: 4) == nil)
        #expect(history.endCursor == 1)
    }

    @Test func anEndWhoseItemNeverComesIsNotShownAndEndsWaitWithinABound() throws {
        var recording = HandWrittenRecording()
        recording.item(1, sequence: 1)
        recording.end(1, "failed", "the server is down")
        recording.end(999, "cancelled", "shutdown", began: false)
        let history = try recording.history()
        #expect(history.endCursor == 1)
        #expect(history.ends(after: 0, through: .max, limit: 100).ends.map(\.sequence) == [1])
        #expect(history.end(ofSequence: 1)?.outcome == .failed("the server is down"))

        // More ends without items than the history keeps waiting: the oldest are let go, so an
        // item that comes long after its end finds none, and one that comes soon after finds its own.
        let orphans = UInt64(EndBook.waitingLimit) + 100
        for sequence in 1_000 ..< 1_000 + orphans {
            try history.read(Data(HandWrittenRecording.endLine(sequence, "succeeded").utf8), number: 10)
        }
        try history.read(Data(HandWrittenRecording.itemLine(2, sequence: 1_000).utf8), number: 11)
        try history.read(Data(HandWrittenRecording.itemLine(3, sequence: 1_000 + orphans - 1).utf8), number: 12)
        #expect(history.end(ofSequence: 1_000) == nil)
        #expect(history.end(ofSequence: 1_000 + orphans - 1)?.outcome == .succeeded)
        #expect(history.withEnds { book, _ in book.waitingCount } <= EndBook.waitingLimit)
    }

    @Test func theEndsOfTheItemsALiveHistoryLetsGoAreLetGoWithThem() throws {
        // A live history of 128 items lets the oldest 32 go when the 129th comes.
        var recording = HandWrittenRecording()
        for position in UInt64(1) ... 128 {
            recording.item(position, sequence: position * 10)
            recording.end(position * 10, "succeeded")
        }
        let history = try recording.history(liveLimit: 128)
        #expect(history.withEnds { book, _ in book.matched.count } == 128)
        try history.read(Data(HandWrittenRecording.itemLine(129, sequence: 1_290).utf8), number: 300)

        #expect(history.summary.firstPosition == 33)
        #expect(history.end(ofSequence: 320) == nil)
        #expect(history.end(ofSequence: 330) != nil)
        #expect(history.withEnds { book, _ in book.matched.count } == 96)
        let read = history.ends(after: 0, through: .max, limit: 1_000)
        #expect(read.ends.map(\.sequence) == (33 ... 128).map { UInt64($0) * 10 })
        #expect(read.cursor == 128)
    }

    @Test func endsAfterACursorAreThoseOfRowsAlreadySentAndTheCursorMovesPastTheRest() throws {
        var recording = HandWrittenRecording()
        for position in UInt64(1) ... 3 {
            recording.item(position, sequence: position)
        }
        recording.end(3, "succeeded")
        recording.end(1, "succeeded")
        recording.end(2, "cancelled", "id")
        let history = try recording.history()

        // A page that has rows 1 and 2 gets their ends; row 3 carries its own when it is sent.
        let first = history.ends(after: 0, through: 2, limit: 100)
        #expect(first.ends.map(\.sequence) == [1, 2])
        #expect(first.cursor == 3)
        #expect(history.ends(after: first.cursor, through: .max, limit: 100).ends.isEmpty)
        // A limit reads the rest next time.
        let limited = history.ends(after: 0, through: .max, limit: 2)
        #expect(limited.ends.map(\.sequence) == [3, 1])
        #expect(history.ends(after: limited.cursor, through: .max, limit: 2).ends.map(\.sequence) == [2])
    }
}
