import Dispatch
import Testing
@testable import Katana
import KatanaTestSupport

@Suite struct PromiseAllTests {
    @Test func all_keepsValuesInPromiseOrder_whateverOrderTheySettleIn() async throws {
        let parts = (0..<4).map { _ in Controlled<Int>() }
        let all = Promise.all(parts.map(\.promise))
        for (index, part) in parts.enumerated().reversed() {
            #expect(all.isPending)
            part.resolve(index * 10)
        }
        #expect(try await all.settled() == [0, 10, 20, 30])
    }

    @Test func all_ofPromisesSettledOnManyThreads_collectsEveryValue() async throws {
        let promises = (0..<200).map { index in
            Promise<Int>(in: .global()) { resolve, _ in resolve(index) }
        }
        #expect(try await Promise.all(promises).settled() == Array(0..<200))
    }

    @Test func all_firstErrorWins() async throws {
        let parts = (0..<3).map { _ in Controlled<Int>() }
        let all = Promise.all(parts.map(\.promise))
        parts[0].resolve(1)
        parts[2].reject(TestError(code: 2))
        parts[1].reject(TestError(code: 1))
        #expect(try await rejection(of: all) as? TestError == TestError(code: 2))
    }

    @Test func all_rejectsWithoutWaitingForPendingPromises() async throws {
        let never = Controlled<Int>()
        let all = Promise.all([never.promise, Promise(rejected: TestError(code: 3))])
        #expect(try await rejection(of: all) as? TestError == TestError(code: 3))
        #expect(never.promise.isPending)
    }

    @Test func all_ofEmptyArray_resolvesWithEmptyArray() async throws {
        let all = Promise<Int>.all([])
        #expect(try await all.settled() == [])
    }

    @Test func all_ofOptionalValues_keepsNils() async throws {
        let all = Promise<Int?>.all([Promise(resolved: nil), Promise(resolved: 1), Promise(resolved: nil)])
        #expect(try await all.settled() == [nil, 1, nil])
    }
}
