import Foundation

/// The counter state of docs/StoreAndThreading.md and docs/Testing.md, the shape most diffs in these tests are about.
struct CounterState: Equatable {
    var counter: Int
    var name: String
}

/// A loading state with every kind of enum case.
enum Load: Equatable {
    case idle
    case loaded(Int)
    case failed(code: Int, reason: String)
    case page(Page)
}

struct Page: Equatable {
    var items: [String]
    var next: Int?
}

struct Screen {
    var title: String
    var load: Load
}

/// A state with enough fields for the unchanged ones to be left out of a diff.
struct Settings {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10
    var k = 11, l = 12, m = 13, n = 14, o = 15, p = 16
}

struct AppState {
    var user = "ada"
    var settings = Settings()
    var flags: [String: Bool] = ["beta": false]
    var tags: Set<String> = ["x"]
}

/// A reference type that can point back at itself.
final class Node {
    var value: Int
    var next: Node?

    init(_ value: Int, next: Node? = nil) {
        self.value = value
        self.next = next
    }
}

class Animal {
    var name = "generic"
}

final class Dog: Animal {
    var goodBoy = true
}

/// A recursive value type, for nesting far deeper than a diff draws.
indirect enum Chain {
    case end(Int)
    case link(Chain)

    static func nested(_ depth: Int, end: Int) -> Chain {
        var chain = Chain.end(end)
        for _ in 0..<depth {
            chain = .link(chain)
        }
        return chain
    }
}

/// Keys that are hashable but not comparable.
enum Color: Hashable {
    case red, green, blue
}

/// An enum with its own description, which a drawing uses.
enum Mode: CustomStringConvertible {
    case fast

    var description: String { "FAST" }
}
