import Dispatch

/// How ``map(_:as:_:_:)`` runs the promises it makes: one after another, or all at once (Hydra's
/// `PromiseResolveType`).
public enum PromiseResolveType: Sendable {
    /// Every item's promise is made at once; they run side by side.
    case parallel
    /// Each item's promise is made once the previous one is fulfilled, in order.
    case series
}

/// Turns every item into a promise with `transform` (called on `queue`) and gives a promise of
/// all their values, in the items' order (Hydra's `map(as:_:_:)`).
///
/// With `.series` each item's promise is made only once the previous one is fulfilled; with
/// `.parallel` all are made at once. The result is rejected with the first error, from a promise
/// or thrown by `transform`; in series, the items after a failure are not transformed. No items
/// give `[]`. ``Promise/retry(_:)`` on the result transforms every item again.
public func map<Item: Sendable, NewValue: Sendable, Items: Sequence>(
    _ queue: DispatchQueue = .global(),
    as type: PromiseResolveType,
    _ items: Items,
    _ transform: @escaping @Sendable (Item) throws -> Promise<NewValue>
) -> Promise<[NewValue]> where Items.Element == Item {
    PromiseMapping(items: Array(items), queue: queue, transform: transform).run(as: type)
}

/// One run of ``map(_:as:_:_:)``: the items (copied once into an array), and the steps of both kinds.
private struct PromiseMapping<Item: Sendable, NewValue: Sendable>: Sendable {
    let items: [Item]
    let queue: DispatchQueue
    let transform: @Sendable (Item) throws -> Promise<NewValue>

    func run(as type: PromiseResolveType) -> Promise<[NewValue]> {
        let mapping = self
        let result = Promise<[NewValue]>.pending(rerun: { mapping.run(as: type) })
        switch type {
        case .parallel:
            queue.async {
                do {
                    let promises = try mapping.items.map(mapping.transform)
                    Promise<NewValue>.all(promises).observe { result.settle($0) }
                } catch {
                    result.reject(error)
                }
            }
        case .series:
            step(from: 0, collected: [], settling: result)
        }
        return result
    }

    /// Transforms item `index` (on the queue), waits for its promise, then goes on with the next.
    private func step(from index: Int, collected: [NewValue], settling result: Promise<[NewValue]>) {
        guard index < items.count else {
            result.resolve(collected)
            return
        }
        let mapping = self
        queue.async {
            do {
                try mapping.transform(mapping.items[index]).observe { outcome in
                    switch outcome {
                    case .success(let value):
                        var collected = collected
                        collected.append(value)
                        mapping.step(from: index + 1, collected: collected, settling: result)
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
