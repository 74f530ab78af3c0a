/// Work under way outside the store that may still dispatch to it (see
/// `AnySideEffectContext.beginOutsideWork()`): until it ends, the store does not count as idle.
/// Ending it twice does nothing, and a token released without ``end()`` ends then.
public final class StoreWorkToken: Sendable {
    private let ending: Locked<(@Sendable () -> Void)?>

    /// A token that calls `ending` once, when it ends.
    public init(ending: @escaping @Sendable () -> Void) {
        self.ending = Locked(ending)
    }

    deinit {
        end()
    }

    /// The work is done (dispatch what it made before calling this).
    public func end() {
        let ending = self.ending.withLock { ending in
            defer { ending = nil }
            return ending
        }
        ending?()
    }
}
