import Dispatch

extension Store {
    /// Where the store runs its state initializer and its listeners, and whether it traces dispatches.
    public struct Configuration: Sendable {
        /// Runs the state initializer. Default: immediately, inside the store's initialiser.
        public let stateInitializerAsyncProvider: any Executor
        /// Runs the listeners. Default: the main queue on Apple platforms (as in Katana); elsewhere a
        /// serial queue of the store's own, so a program with no run loop still gets its listeners called.
        public let listenersAsyncProvider: any Executor
        /// Receives begin/end of every handled item, when set.
        public let signpostLogger: SignpostLogger?
        /// Whether, after the store has handled a burst of items, the process asks the C allocator to
        /// give the memory the burst freed back to the system (on Linux, where glibc otherwise keeps
        /// it resident; see docs/StoreAndThreading.md, "Memory after a burst"). Default: true.
        public let releasesMemoryAfterBursts: Bool
        /// Whether the store calls its listeners once when it becomes ready, with the initial state
        /// as both the old and the new state, before any change: Katana 3.x's behaviour, which
        /// UI code migrated from 3.x may rely on to render first (see Migration.md, "Behaviour you
        /// may notice"). The call is queued on the listener executor, so a listener added right
        /// after the store's initialiser returns gets it; `stateUpdates` sequences do not.
        /// Default: false, as in Katana 2.0 and 6.x.
        public let callsListenersWhenReady: Bool
        /// What the store carries from the code that dispatches an item to the code that handles
        /// it (the request behind it), when set: see ``DispatchContext``. Default: nil, and items
        /// carry nothing.
        public let dispatchContext: DispatchContext?
        /// Starts the task each ``AsyncSideEffect`` runs in, when set: a hook for `KatanaTesting`,
        /// whose test clock runs side effects on an executor of its own and so knows when every one
        /// has suspended. Default: nil, and the store starts the task itself, running it on the
        /// side-effect worker until it first suspends.
        package var asyncSideEffectTaskStarter: AsyncSideEffectTaskStarter?
        /// The threads side effects run on: the process-wide ones, or (in the package's own tests)
        /// a pool with a small cap.
        var workerThreads = WorkerThreads.shared
        /// What the store learns from the operating system about its workers' threads (is one
        /// asleep?): `/proc` on Linux; the package's tests give a probe that cannot tell, to test
        /// the fallback other systems get.
        package var threadProbe: any ThreadProbe = ProcThreadProbe()

        /// Creates a configuration; every parameter has a default that works without a run loop.
        public init(
            stateInitializerAsyncProvider: any Executor = ImmediateExecutor(),
            listenersAsyncProvider: any Executor = Configuration.defaultListenersExecutor(),
            signpostLogger: SignpostLogger? = nil,
            releasesMemoryAfterBursts: Bool = true,
            callsListenersWhenReady: Bool = false,
            dispatchContext: DispatchContext? = nil
        ) {
            self.stateInitializerAsyncProvider = stateInitializerAsyncProvider
            self.listenersAsyncProvider = listenersAsyncProvider
            self.signpostLogger = signpostLogger
            self.releasesMemoryAfterBursts = releasesMemoryAfterBursts
            self.callsListenersWhenReady = callsListenersWhenReady
            self.dispatchContext = dispatchContext
        }

        /// The default listener executor of this platform (see ``listenersAsyncProvider``).
        public static func defaultListenersExecutor() -> any Executor {
            #if canImport(Darwin)
            return DispatchQueue.main
            #else
            return DispatchQueue(label: "Katana.Store.listeners")
            #endif
        }
    }
}
