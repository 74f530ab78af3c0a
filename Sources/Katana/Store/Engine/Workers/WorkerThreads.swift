#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Foundation

/// Threads of the package's own, for side effects that may block: a pool that starts a thread as
/// soon as work finds none idle (up to a cap), and keeps idle threads a little while for the next
/// burst. Linux's dispatch queues add threads only slowly once theirs block; this pool does not
/// wait, and a thread blocked in the package's `wait` does not even count against the cap.
///
/// Its bookkeeping is a ``WorkerThreadsState`` behind one lock; each thread runs this loop:
///
///     step = run(first work)
///     loop:
///         run(work):  work(); step = state.finished(me)     // the next queued work, or wait
///         wait:       wait for my own signal, at most idleTimeout
///                     step = signalled ? state.woke(me) : state.timedOut(me)
///         exit:       return
///
/// Each thread waits on a semaphore of its own, so handing work to an idle thread wakes that
/// thread and no other. The lock is never held while work runs, a thread is signalled or started.
final class WorkerThreads: Sendable {
    /// What the pool runs. It cannot throw; one that never returns keeps its thread for good.
    typealias Work = @Sendable () -> Void
    /// A snapshot of the pool's threads and queued work.
    typealias Statistics = WorkerThreadsStatistics

    /// The pool every store runs its side effects on.
    ///
    /// At most 256 threads not blocked in the package's `wait`: far beyond what side effects busy
    /// with the CPU can use on any machine, and above what GCD lends on Apple platforms when work
    /// blocks (dozens of threads, 64 per priority), so side effects that block in sleeps,
    /// semaphores or synchronous I/O still start promptly, as they do there; past the cap, work
    /// waits in order (a thread costs its stack's address space, touched only as it is used).
    /// Idle threads exit after 2 seconds: a burst of side effects reuses the threads of the one
    /// before, and a service that went quiet keeps none.
    static let shared = WorkerThreads(maximumThreads: 256, idleTimeout: .seconds(2), name: "Katana.worker")

    /// The most threads that may run work (or wait idle) without being blocked in the package's `wait`.
    let maximumThreads: Int

    /// How long a thread waits idle for work before it exits.
    let idleTimeout: Duration
    /// The name the pool's threads carry, as a thread dump shows it.
    let name: String
    /// The pool's bookkeeping (its own lock, never held together with another).
    private let state: Locked<WorkerThreadsState<Work, Sleeper>>

    /// A pool of at most `maximumThreads` unblocked threads (at least one), which exit after
    /// `idleTimeout` without work, named `name` (Linux keeps the first 15 bytes of it).
    init(maximumThreads: Int, idleTimeout: Duration, name: String) {
        let bookkeeping = WorkerThreadsState<Work, Sleeper>(maximumThreads: maximumThreads)
        self.maximumThreads = bookkeeping.maximumThreads
        state = Locked(bookkeeping)
        self.idleTimeout = idleTimeout
        self.name = Self.threadName(from: name)
    }

    /// Runs `work` soon on one of the pool's threads: at once when a thread is idle or may be
    /// started, otherwise after the work queued before it. Never drops it.
    func run(_ work: @escaping Work) {
        switch state.withLock({ $0.submit(work) }) {
        case .none:
            break
        case .wake(let sleeper):
            sleeper.signal()
        case .startThread(let first):
            startThread(running: first)
        }
    }

    /// The threads alive (idle, busy, blocked) and the work queued, for tests and benchmarks.
    var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    // MARK: - Blocking

    /// A pool thread's announcement that it blocks: until ``threadDidUnblock()``, it does not count
    /// against the pool's cap.
    struct BlockingToken {
        private let pool: WorkerThreads

        fileprivate init(pool: WorkerThreads) {
            self.pool = pool
        }

        /// The thread that announced it would block woke, and goes on with its work; call once.
        func threadDidUnblock() {
            pool.state.withLock { $0.threadDidUnblock() }
        }
    }

    /// Called before the current thread blocks in the package's `wait`. On a pool thread, the
    /// thread stops counting against its pool's cap (queued work gets a new thread, in case it is
    /// what the wait waits for) until the returned token's ``BlockingToken/threadDidUnblock()``.
    /// Nil, and nothing done, on any other thread.
    static func currentThreadWillBlock() -> BlockingToken? {
        guard let pool = current else { return nil }
        if case .startThread(let work) = pool.state.withLock({ $0.threadWillBlock() }) {
            pool.startThread(running: work)
        }
        return BlockingToken(pool: pool)
    }

    /// The pool whose thread is running this code, if any.
    static var current: WorkerThreads? {
        poolOfThread.current
    }

    /// Each pool thread's pool (kept alive by the thread while it runs).
    private static let poolOfThread = ThreadLocal<WorkerThreads>(.workerPool)

    // MARK: - Threads

    /// What a pool thread waits on, its own: signalled when work is handed to it. A semaphore
    /// keeps a signal that comes before the wait, so no hand-off is missed; at most one signal is
    /// ever left over (from a hand-off that raced a timeout), and it only makes the next wait
    /// return early to ask the state again.
    private final class Sleeper: Hashable, Sendable {
        private let semaphore = DispatchSemaphore(value: 0)

        /// Wakes the thread (or lets its next wait return at once, if it is not waiting yet).
        func signal() {
            semaphore.signal()
        }

        /// Waits for a signal at most `timeout`; returns whether one came.
        func wait(timeout: Duration) -> Bool {
            semaphore.wait(timeout: .now() + timeout.dispatchInterval) == .success
        }

        /// One sleeper per thread: two are the same only if they are one object.
        static func == (lhs: Sleeper, rhs: Sleeper) -> Bool {
            lhs === rhs
        }

        /// Hashes the identity, to match ``==``.
        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(self))
        }
    }

    /// Starts a thread whose first work is `first`. (Foundation reports no failure: in a process
    /// that has run out of threads, that work would never run, and the thread would stay counted.)
    private func startThread(running first: @escaping Work) {
        // The thread takes its first work out of the box, so that neither the thread's closure nor
        // `serve` holds it once it has run: what the work captured (a store's runner, and so the
        // store) is freed then, not when the thread exits after idling.
        let handOff = FirstWork(first)
        let thread = Thread { [self] in
            serve(handOff)
        }
        thread.start()
    }

    /// A thread's first work, taken once.
    // @unchecked: `work` is set before the thread starts (which orders it) and taken once, by that
    // thread alone.
    private final class FirstWork: @unchecked Sendable {
        private var work: Work?

        init(_ work: @escaping Work) {
            self.work = work
        }

        /// The work; nil once taken.
        func take() -> Work? {
            defer { work = nil }
            return work
        }
    }

    /// A pool thread's life: its first work, then whatever the pool gives it, until it idles for
    /// the whole timeout.
    private func serve(_ first: FirstWork) {
        Self.nameCurrentThread(name)
        let previous = Self.poolOfThread.replace(with: self)
        defer { Self.poolOfThread.restore(previous) }
        let sleeper = Sleeper()
        // Never nil: a thread takes its first work once, here.
        var step = first.take().map { WorkerThreadsState<Work, Sleeper>.NextStep.run($0) } ?? .exit
        while true {
            switch step {
            case .run(let work):
                // Released before the next step is taken: an idle wait holds nothing of it.
                step = .exit
                work()
                step = state.withLock { $0.finished(sleeper) }
            case .wait:
                let signalled = sleeper.wait(timeout: idleTimeout)
                step = state.withLock { signalled ? $0.woke(sleeper) : $0.timedOut(sleeper) }
            case .exit:
                return
            }
        }
    }

    /// Gives the calling thread `name`, as thread dumps and `top -H` show it. Done by the thread
    /// itself: on Linux, Foundation's `Thread.name` reaches the system thread only once `start()`
    /// has returned in the starting thread, which the new thread cannot know (it would keep its
    /// creator's name). A failure leaves that name.
    private static func nameCurrentThread(_ name: String) {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #elseif os(Linux)
        // Glibc's module does not export pthread_setname_np; the kernel takes the name here too.
        let descriptor = open("/proc/thread-self/comm", O_WRONLY)
        guard descriptor >= 0 else { return }
        _ = name.withCString { write(descriptor, $0, strlen($0)) }
        _ = close(descriptor)
        #endif
    }

    /// `name` cut to what a thread name may hold everywhere (15 bytes on Linux), on a character
    /// boundary.
    private static func threadName(from name: String) -> String {
        var cut = ""
        for character in name {
            guard cut.utf8.count + character.utf8.count <= 15 else { break }
            cut.append(character)
        }
        return cut
    }
}
