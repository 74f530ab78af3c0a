@testable import Katana
import Testing

@Suite struct IntrusiveStackTests {
    private final class Node: IntrusiveStackElement {
        let name: String
        var belowInStack: Node?

        init(_ name: String) {
            self.name = name
        }
    }

    /// The names from `top` down, following the links.
    private func names(from top: Node?) -> [String] {
        var names: [String] = []
        var next = top
        while let node = next {
            names.append(node.name)
            next = node.belowInStack
        }
        return names
    }

    @Test func pushesUpToItsLimit_andPopsEverythingAtOnce_newestOnTop() {
        var stack = IntrusiveStack<Node>(limit: 3)
        let pushed = ["a", "b", "c", "d"].map { stack.push(Node($0)) }
        #expect(pushed == [true, true, true, false])
        #expect(stack.count == 3)
        #expect(names(from: stack.popAll()) == ["c", "b", "a"])
        #expect(stack.count == 0 && stack.top == nil)
        let pushedAgain = stack.push(Node("e"))
        #expect(pushedAgain && names(from: stack.top) == ["e"])
    }

    @Test func lettingGo_freesEveryElementNobodyElseHolds_evenBelowOneThatIsStillHeld() {
        var stack = IntrusiveStack<Node>(limit: 8)
        weak var bottom: Node?
        weak var top: Node?
        // The middle one is still held elsewhere (as a worker holds the job it just left).
        let stillHeld = Node("middle")
        do {
            let first = Node("bottom")
            let last = Node("top")
            bottom = first
            top = last
            _ = stack.push(first)
            _ = stack.push(stillHeld)
            _ = stack.push(last)
        }
        IntrusiveStack.letGo(stack.popAll())
        // Let go of as a chain, the middle one would have kept the bottom one alive.
        #expect(top == nil)
        #expect(bottom == nil)
        #expect(stillHeld.belowInStack == nil)
    }
}
