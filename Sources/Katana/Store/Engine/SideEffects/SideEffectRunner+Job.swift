extension SideEffectRunner {
    /// One side effect the store has taken: its item and promise, how to run it, and what cancelled
    /// it. One object, so that the registry and the workers pass it around with a retain, instead
    /// of copying the item and its promise each time (docs/PERFORMANCE.md,
    /// "Side effects: no-op SideEffect").
    final class Job: RegisteredSideEffect, @unchecked Sendable {
        // @unchecked: the task's fields (`taskRunner` to `bodyStart`) are written by the thread
        // that makes the task before it is made, and read by the task only; the cancellation is
        // atomic; everything else is a constant.

        /// How it runs.
        enum Kind {
            /// A synchronous or returning side effect: its interceptors, then its body.
            case run(ItemKind.SideEffectRunner)
            /// An async side effect: its interceptors on a worker (if it has any), then its task.
            case start(ItemKind.AsyncSideEffectRunner)
        }

        let envelope: Envelope
        let kind: Kind
        let identity: SideEffectIdentity?
        let startsTaskWhenTaken: Bool
        /// The runner that starts its task, and the entry the task ends: set before the task is
        /// made, read by the task only. Held here so that the task's closure captures this one
        /// object, which then serves as the closure's context (no allocation of its own).
        var taskRunner: SideEffectRunner?
        var taskToken: Registry.Token?
        /// Whether its store observed side-effect ends when it took it (a constant, which the task
        /// reads without an access check), and when its body began, a reading of
        /// ``SideEffectEndObservers/now`` the task takes and reads only when it observes ends.
        let observesEnds: Bool
        var bodyStart: UInt64 = 0
        /// What cancelled it (a ``SideEffectEnd/Canceller/code``; 0: nothing), read by its task as
        /// it starts: an atomic, so that the task's first step costs no lock (docs/PERFORMANCE.md,
        /// "Side effects: no-op AsyncSideEffect").
        private let cancellationCode = AtomicByte()

        /// The side effect this one stands in for, when an interceptor passed it on in its place:
        /// the registry knows only that one, and cancels it.
        private let standIn: Job?

        init(
            _ envelope: Envelope, _ kind: Kind, identity: SideEffectIdentity?, startsTaskWhenTaken: Bool,
            observesEnds: Bool, standingInFor original: Job? = nil
        ) {
            self.observesEnds = observesEnds
            self.envelope = envelope
            self.kind = kind
            self.identity = identity
            self.startsTaskWhenTaken = startsTaskWhenTaken
            standIn = original
        }

        var order: UInt64 { envelope.sequence }
        var promise: PromiseHandle? { envelope.promise }
        var isAsync: Bool {
            if case .start = kind { return true }
            return false
        }
        var itemType: any Dispatchable.Type {
            switch kind {
            case .run: type(of: envelope.item)
            case .start(let runner): runner.itemType
            }
        }

        var cancellation: SideEffectEnd.Canceller? {
            SideEffectEnd.Canceller(code: cancellationCode.value)
        }

        func recordCancellation(_ canceller: SideEffectEnd.Canceller) {
            cancellationCode.store(canceller.code)
        }

        /// Whether the registry has marked it (or the side effect it stands in for) cancelled.
        var isCancellationRequested: Bool {
            cancellationCode.value != 0 || standIn?.isCancellationRequested == true
        }
    }
}
