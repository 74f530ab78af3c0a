import Dispatch

extension Promise {
    /// A promise of both values, fulfilled once `a` and `b` are both fulfilled and rejected with
    /// the first error either reports (Hydra's `zip`). The two run side by side.
    ///
    /// Call it on any promise type, as in Hydra: `Promise<Void>.zip(a, b)`. With `queue`, the
    /// result is settled from that queue (Hydra's context); callbacks chained on it still run on
    /// the queue they name. ``retry(_:)`` re-runs the work behind both.
    public static func zip<A: Sendable, B: Sendable>(
        in queue: DispatchQueue? = nil,
        _ a: Promise<A>,
        _ b: Promise<B>
    ) -> Promise<(A, B)> {
        let result = Promise<(A, B)>.pending(
            rerun: { zip(in: queue, a.restarted(), b.restarted()) },
            fromEngineNumbered: sharedEngineNumber([a.storeEngineNumber, b.storeEngineNumber])
        )
        // Each side stores its value; whichever arrives second completes the pair.
        let values = Locked<(a: A?, b: B?)>((nil, nil))
        a.observe { outcome in
            switch outcome {
            case .success(let value):
                let pair: (A, B)? = values.withLock { values in
                    values.a = value
                    return values.b.map { (value, $0) }
                }
                if let pair {
                    result.settle(.success(pair), on: queue)
                }
            case .failure(let error):
                result.settle(.failure(error), on: queue)
            }
        }
        b.observe { outcome in
            switch outcome {
            case .success(let value):
                let pair: (A, B)? = values.withLock { values in
                    values.b = value
                    return values.a.map { ($0, value) }
                }
                if let pair {
                    result.settle(.success(pair), on: queue)
                }
            case .failure(let error):
                result.settle(.failure(error), on: queue)
            }
        }
        return result
    }

    /// A promise of the three values, fulfilled once all are fulfilled and rejected with the
    /// first error any of them reports; see ``zip(in:_:_:)``.
    public static func zip<A: Sendable, B: Sendable, C: Sendable>(
        in queue: DispatchQueue? = nil,
        a: Promise<A>,
        b: Promise<B>,
        c: Promise<C>
    ) -> Promise<(A, B, C)> {
        Promise<Void>.zip(Promise<Void>.zip(a, b), c).flattened(on: queue) { ab, c in (ab.0, ab.1, c) }
    }

    /// A promise of the four values, fulfilled once all are fulfilled and rejected with the
    /// first error any of them reports; see ``zip(in:_:_:)``.
    public static func zip<A: Sendable, B: Sendable, C: Sendable, D: Sendable>(
        in queue: DispatchQueue? = nil,
        a: Promise<A>,
        b: Promise<B>,
        c: Promise<C>,
        d: Promise<D>
    ) -> Promise<(A, B, C, D)> {
        Promise<Void>.zip(Promise<Void>.zip(a, b), Promise<Void>.zip(c, d)).flattened(on: queue) { ab, cd in
            (ab.0, ab.1, cd.0, cd.1)
        }
    }

    /// Settles the promise with `outcome`, from `queue` when one is given.
    func settle(_ outcome: Outcome, on queue: DispatchQueue?) {
        guard let queue else {
            settle(outcome)
            return
        }
        let promise = self
        queue.async { promise.settle(outcome) }
    }
}

extension Promise {
    /// The nested pairs of a larger `zip` as one tuple, without a hop to a queue (no user code runs).
    fileprivate func flattened<First: Sendable, Second: Sendable, Flat: Sendable>(
        on queue: DispatchQueue?,
        _ flatten: @escaping @Sendable (First, Second) -> Flat
    ) -> Promise<Flat> where Value == (First, Second) {
        continued(rerun: { $0.flattened(on: queue, flatten) }) { outcome, next in
            next.settle(outcome.map { flatten($0.0, $0.1) }, on: queue)
        }
    }
}
