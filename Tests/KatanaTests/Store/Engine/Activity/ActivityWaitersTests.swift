import Testing
@testable import Katana
import KatanaTestSupport

/// The waiters of a store's activity signal, event by event, without threads.
@Suite struct ActivityWaitersTests {
    @Test func aPokeHandsBackEveryRegisteredWaiter_inOrder_andMovesTheGeneration() {
        var waiters = ActivityWaiters<String>()
        let seen = waiters.generation
        let first = waiters.makeID()
        let second = waiters.makeID()
        #expect(waiters.register("first", id: first, after: seen) == nil)
        #expect(waiters.register("second", id: second, after: seen) == nil)
        #expect(waiters.count == 2)
        #expect(waiters.poke() == ["first", "second"])
        #expect(waiters.generation == seen &+ 1)
        #expect(waiters.count == 0)
        #expect(waiters.poke() == [])
    }

    @Test func aPokeBetweenTheLookAndTheRegistration_handsTheWaiterStraightBack() {
        var waiters = ActivityWaiters<String>()
        let seen = waiters.generation
        _ = waiters.poke()
        let id = waiters.makeID()
        #expect(waiters.register("late", id: id, after: seen) == "late")
        #expect(waiters.count == 0)
    }

    @Test func withdrawingARegisteredWaiter_handsItBack_once() {
        var waiters = ActivityWaiters<String>()
        let id = waiters.makeID()
        #expect(waiters.register("waiting", id: id, after: waiters.generation) == nil)
        #expect(waiters.withdraw(id) == "waiting")
        #expect(waiters.poke() == [])
    }

    @Test func aCancellationBeforeTheRegistration_isRemembered_andTheRegistrationReturnsAtOnce() {
        var waiters = ActivityWaiters<String>()
        let id = waiters.makeID()
        #expect(waiters.withdraw(id) == nil)
        #expect(waiters.register("cancelled", id: id, after: waiters.generation) == "cancelled")
        #expect(waiters.count == 0)
        waiters.forget(id)
        // Forgotten: a new registration under the same id waits as any other.
        #expect(waiters.register("again", id: id, after: waiters.generation) == nil)
    }

    @Test func aTimerFiringForAWaiterAlreadyWoken_isForgottenWhenTheTimerIsCancelled() {
        var waiters = ActivityWaiters<String>()
        let id = waiters.makeID()
        #expect(waiters.register("woken", id: id, after: waiters.generation) == nil)
        #expect(waiters.poke() == ["woken"])
        #expect(waiters.withdraw(id) == nil)
        waiters.forget(id)
        // Nothing is left: the next registration under that id is not handed back.
        #expect(waiters.register("next", id: id, after: waiters.generation) == nil)
    }
}
