import Dispatch

/// Folds `items` into one value with an asynchronous step (Hydra's `reduce`): `transform` is
/// called on `queue` with `initial` and the first item, then with the value its promise is
/// fulfilled with and the next item, and so on, one at a time, in order.
///
/// The result is fulfilled with the last value (`initial` when there are no items) and rejected
/// with the first error, from a step's promise or thrown by `transform`; the items after it are not
/// used. ``Promise/retry(_:)`` on the result runs the whole fold again.
public func reduce<Item: Sendable, Partial: Sendable, Items: Sequence>(
    in queue: DispatchQueue = .global(),
    _ items: Items,
    _ initial: Partial,
    _ transform: @escaping @Sendable (Partial, Item) throws -> Promise<Partial>
) -> Promise<Partial> where Items.Element == Item {
    PromiseFold(items: Array(items), queue: queue, transform: transform).run(from: initial)
}

/// One run of ``reduce(in:_:_:_:)``: the items (copied once into an array) and the step.
private struct PromiseFold<Item: Sendable, Partial: Sendable>: Sendable {
    let items: [Item]
    let queue: DispatchQueue
    let transform: @Sendable (Partial, Item) throws -> Promise<Partial>

    func run(from initial: Partial) -> Promise<Partial> {
        let fold = self
        let result = Promise<Partial>.pending(rerun: { fold.run(from: initial) })
        step(from: 0, partial: initial, settling: result)
        return result
    }

    /// Folds item `index` into `partial` (on the queue), waits for the step, then goes on.
    private func step(from index: Int, partial: Partial, settling result: Promise<Partial>) {
        guard index < items.count else {
            result.resolve(partial)
            return
        }
        let fold = self
        queue.async {
            do {
                try fold.transform(partial, fold.items[index]).observe { outcome in
                    switch outcome {
                    case .success(let next):
                        fold.step(from: index + 1, partial: next, settling: result)
                    case .failure(let error):
                        result.reject(error)
                    }
                }
            } catch {
                result.reject(error)
            }
        }
    }
}
