/// An object that can sit in an ``IntrusiveStack``: it holds the element below it itself.
protocol IntrusiveStackElement: AnyObject {
    /// The element below this one in its stack (nil at the bottom, and out of a stack). Only the
    /// stack and ``IntrusiveStack/letGo(_:)`` set it.
    var belowInStack: Self? { get set }
}

/// A stack of at most ``limit`` objects linked through the objects themselves, so that a push
/// allocates nothing: where the side-effect registry keeps the jobs its workers finished, for the
/// thread that allocated them to free (see ``SideEffectRegistry/hold(forTheNextAdd:)``).
struct IntrusiveStack<Element: IntrusiveStackElement> {
    /// The most elements it holds.
    let limit: Int
    /// The element pushed last; the others hang below it.
    private(set) var top: Element?
    /// How many it holds.
    private(set) var count = 0

    /// An empty stack that holds at most `limit` elements.
    init(limit: Int) {
        self.limit = limit
    }

    /// Pushes `element` unless the stack is full; returns whether it did.
    mutating func push(_ element: Element) -> Bool {
        guard count < limit else { return false }
        // Moved rather than copied: no reference count changes but the new element's.
        var below: Element? = element
        swap(&below, &top)
        element.belowInStack = below
        count += 1
        return true
    }

    /// Takes every element out: the top one, with the others below it. Hand it to
    /// ``letGo(_:)``, which unlinks them.
    mutating func popAll() -> Element? {
        var all: Element?
        swap(&all, &top)
        count = 0
        return all
    }

    /// Lets go of elements taken out with ``popAll()``, unlinking them one by one: each is then
    /// freed here unless something else still holds it. Let go of as a chain, an element held
    /// elsewhere would keep every one below it, and they would all be freed wherever it is let go
    /// of last.
    static func letGo(_ elements: consuming Element?) {
        var next = elements
        while let element = next {
            var below: Element?
            swap(&below, &element.belowInStack)
            next = below
        }
    }
}
