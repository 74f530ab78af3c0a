import Testing

@testable import NotificationBridge

/// Which cancels may wait for which posts: threads are numbers, subscriptions are letters.
struct CancelWaitGraphTests {
    typealias Graph = CancelWaitGraph<Int, Character>

    private func post(_ subscription: Character, on thread: Int) -> Graph.Post {
        Graph.Post(subscription: subscription, thread: thread)
    }

    /// Begins each wait in turn, expecting whether the graph lets it wait.
    private func begin(
        _ waits: [(thread: Int, post: Graph.Post, mayWait: Bool)],
        in graph: inout Graph,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (index, wait) in waits.enumerated() {
            let mayWait = graph.beginWait(by: wait.thread, for: wait.post)
            #expect(mayWait == wait.mayWait, "wait \(index): thread \(wait.thread) for \(wait.post)", sourceLocation: sourceLocation)
        }
    }

    @Test
    func waitingForAPostWhoseThreadIsFreeIsRecorded() {
        var graph = Graph()
        begin([(1, post("b", on: 2), true)], in: &graph)
        #expect(graph.waits == [1: post("b", on: 2)])
    }

    @Test
    func aThreadNeverWaitsForAPostOnItself() {
        var graph = Graph()
        begin([(1, post("a", on: 1), false)], in: &graph)
        #expect(graph.waits.isEmpty)
    }

    @Test
    func twoThreadsWaitingForEachOther_theSecondIsRefused() {
        var graph = Graph()
        begin([(1, post("b", on: 2), true), (2, post("a", on: 1), false)], in: &graph)
        #expect(graph.waits == [1: post("b", on: 2)])
    }

    @Test
    func aLongerCircleIsRefusedOnlyWhenItWouldClose() {
        var graph = Graph()
        begin([
            (1, post("b", on: 2), true),
            (2, post("c", on: 3), true),
            (3, post("a", on: 1), false),
            (3, post("d", on: 4), true),  // a chain without a circle may grow
            (4, post("b", on: 2), false),
        ], in: &graph)
        #expect(graph.waits.count == 3)
    }

    @Test
    func severalThreadsMayWaitForOnePost() {
        var graph = Graph()
        begin([
            (1, post("c", on: 3), true),
            (2, post("c", on: 3), true),
            (3, post("a", on: 1), false),
            (3, post("b", on: 2), false),
            (3, post("d", on: 4), true),
        ], in: &graph)
    }

    @Test
    func endWait_removesOnlyTheCallersWaitAndReopensThePath() {
        var graph = Graph()
        begin([(1, post("b", on: 2), true), (3, post("b", on: 2), true)], in: &graph)
        graph.endWait(by: 1)
        #expect(graph.waits == [3: post("b", on: 2)])
        begin([(2, post("a", on: 1), true)], in: &graph)
    }

    @Test
    func postEnded_releasesEveryWaitForThatPostAndNoOther() {
        var graph = Graph()
        begin([
            (1, post("b", on: 2), true),
            (3, post("b", on: 2), true),
            (4, post("c", on: 2), true),
            (5, post("b", on: 6), true),
        ], in: &graph)
        graph.postEnded(post("b", on: 2))
        #expect(graph.waits == [4: post("c", on: 2), 5: post("b", on: 6)])
        // Thread 2 may now wait for a post on thread 1: 1 no longer waits for it.
        begin([(2, post("a", on: 1), true)], in: &graph)
    }

    @Test
    func endWaitAfterPostEndedIsHarmless() {
        var graph = Graph()
        begin([(1, post("b", on: 2), true)], in: &graph)
        graph.postEnded(post("b", on: 2))
        graph.endWait(by: 1)
        #expect(graph.waits.isEmpty)
    }
}
