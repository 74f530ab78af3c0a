@testable import Katana
import Testing

/// The list of jobs taken onto workers, without a registry: tokens gone from their workers stay
/// until the list is full, and a prune keeps the others in order.
@Suite struct TakenListTests {
    @Test func theListFillsUpToItsSlack_thenAPruneKeepsThoseStillOnWorkers_inOrder() {
        var list = TakenList<Int>()
        let slack = TakenList<Int>.slack
        for token in 0 ..< slack {
            #expect(!list.isFull)
            list.append(token)
        }
        #expect(list.isFull)
        // Only the multiples of ten are still on their workers.
        list.prune { $0 % 10 == 0 }
        #expect(list.tokens == [0, 10, 20, 30].filter { $0 < slack })
        #expect(list.limit == 2 * list.tokens.count + slack)
        #expect(!list.isFull)
    }

    @Test func aPruneThatKeepsEverything_raisesTheLimit_soAListOfLongJobsIsNotPrunedAtEveryTake() {
        var list = TakenList<Int>()
        let slack = TakenList<Int>.slack
        for token in 0 ..< slack {
            list.append(token)
        }
        list.prune { _ in true }
        #expect(list.tokens == Array(0 ..< slack))
        #expect(list.limit == 3 * slack)
        list.append(slack)
        #expect(!list.isFull)
    }
}
