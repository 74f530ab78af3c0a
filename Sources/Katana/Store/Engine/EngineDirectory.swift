/// The live store engines, by number, so that a dispatch promise can find its store again (to
/// dispatch its item again on `retry`, or to help a waiting thread) without holding a reference.
///
/// A promise keeps only its engine's number. A weak reference per promise would do the same, but
/// every copy and release of a weak reference is an atomic operation on the engine's side table,
/// which the dispatching thread and the store's queue fight over at every dispatch.
enum EngineDirectory {
    /// A registered engine, held weakly so the directory never keeps a store alive.
    private struct Entry {
        weak var engine: (any ItemEnqueueing)?
    }

    private struct Directory {
        var engines: [UInt64: Entry] = [:]
        var lastNumber: UInt64 = 0
    }

    private static let directory = Locked(Directory())

    /// A new engine number (never 0, never reused), for `register(_:as:)`.
    static func newNumber() -> UInt64 {
        directory.withLock { directory in
            directory.lastNumber += 1
            return directory.lastNumber
        }
    }

    /// Registers `engine` under `number`, from `newNumber()`.
    static func register(_ engine: any ItemEnqueueing, as number: UInt64) {
        directory.withLock { $0.engines[number] = Entry(engine: engine) }
    }

    /// Forgets the engine with this number.
    static func unregister(_ number: UInt64) {
        _ = directory.withLock { $0.engines.removeValue(forKey: number) }
    }

    /// The engine with this number, or nil once it has been released.
    static func engine(numbered number: UInt64) -> (any ItemEnqueueing)? {
        directory.withLock { $0.engines[number]?.engine }
    }
}
