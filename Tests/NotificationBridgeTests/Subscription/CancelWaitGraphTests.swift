import Testing

@testable import NotificationBridge

/// Which cancels may wait for which posts: threads are numbers, subscriptions are letters.
struct CancelWaitGraphTests {
    typealias Graph = CancelWaitGraph<Int, Character>

    private func post(_ subscription: Character, on thread: Int) -> Graph.Post {
        Graph.Post(subscription: subscription, thread: thread)
    }

    @Test
    func waitingForAPostWhoseThreadIsFreeIsRecorded() {
        var graph = Graph()
        let mayWait = graph.beginWait(by: 1, for: post("b", on: 2))
        #expect(mayWait)
        #expect(graph.waits == [1: post("b", on: 2)])
    }

    @Test
    func aThreadNeverWaitsForAPostOnItself() {
        var graph = Graph()
        let mayWait = graph.beginWait(by: 1, for: post("a", on: 1))
        #expect(!mayWait)
        #expect(graph.waits.isEmpty)
    }

    @Test
    func twoThreadsWaitingForEachOther_theSecondIsRefused() {
        var graph = Graph()
        let mayWait = graph.beginWait(by: 1, for: post("b", on: 2))
        #expect(mayWait)
        let mayWait2 = graph.beginWait(by: 2, for: post("a", on: 1))
        #expect(!mayWait2)
        #expect(graph.waits == [1: post("b", on: 2)])
    }

    @Test
    func aLongerCircleIsRefusedOnlyWhenItWouldClose() {
        var graph = Graph()
        let mayWait = graph.beginWait(by: 1, for: post("b", on: 2))
        #expect(mayWait)
        let mayWait2 = graph.beginWait(by: 2, for: post("c", on: 3))
        #expect(mayWait2)
        let mayWait3 = graph.beginWait(by: 3, for: post("a", on: 1))
        #expect(!mayWait3)
        let mayWait4 = graph.beginWait(by: 3, for: post("d", on: 4))
        #expect(mayWait4, "a chain without a circle may grow")
        let mayWait5 = graph.beginWait(by: 4, for: post("b", on: 2))
        #expect(!mayWait5)
        #expect(graph.waits.count == 3)
    }

    @Test
    func severalThreadsMayWaitForOnePost() {
        var graph = Graph()
        let mayWait = graph.beginWait(by: 1, for: post("c", on: 3))
        #expect(mayWait)
        let mayWait2 = graph.beginWait(by: 2, for: post("c", on: 3))
        #expect(mayWait2)
        let mayWait3 = graph.beginWait(by: 3, for: post("a", on: 1))
        #expect(!mayWait3)
        let mayWait4 = graph.beginWait(by: 3, for: post("b", on: 2))
        #expect(!mayWait4)
        let mayWait5 = graph.beginWait(by: 3, for: post("d", on: 4))
        #expect(mayWait5)
    }

    @Test
    func endWait_removesOnlyTheCallersWaitAndReopensThePath() {
        var graph = Graph()
        let mayWait = graph.beginWait(by: 1, for: post("b", on: 2))
        #expect(mayWait)
        let mayWait2 = graph.beginWait(by: 3, for: post("b", on: 2))
        #expect(mayWait2)
        graph.endWait(by: 1)
        #expect(graph.waits == [3: post("b", on: 2)])
        let mayWait3 = graph.beginWait(by: 2, for: post("a", on: 1))
        #expect(mayWait3)
    }

    @Test
    func postEnded_releasesEveryWaitForThatPostAndNoOther() {
        var graph = Graph()
        let mayWait = graph.beginWait(by: 1, for: post("b", on: 2))
        #expect(mayWait)
        let mayWait2 = graph.beginWait(by: 3, for: post("b", on: 2))
        #expect(mayWait2)
        let mayWait3 = graph.beginWait(by: 4, for: post("c", on: 2))
        #expect(mayWait3)
        let mayWait4 = graph.beginWait(by: 5, for: post("b", on: 6))
        #expect(mayWait4)
        graph.postEnded(post("b", on: 2))
        #expect(graph.waits == [4: post("c", on: 2), 5: post("b", on: 6)])
        // Thread 2 may now wait for a post on thread 1: 1 no longer waits for it.
        let mayWait5 = graph.beginWait(by: 2, for: post("a", on: 1))
        #expect(mayWait5)
    }

    @Test
    func endWaitAfterPostEndedIsHarmless() {
        var graph = Graph()
        let mayWait = graph.beginWait(by: 1, for: post("b", on: 2))
        #expect(mayWait)
        graph.postEnded(post("b", on: 2))
        graph.endWait(by: 1)
        #expect(graph.waits.isEmpty)
    }
}
