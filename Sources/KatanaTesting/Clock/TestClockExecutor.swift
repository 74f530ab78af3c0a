import Dispatch

/// The task executor of a ``TestClock``: it runs jobs on Dispatch's global queue, like an
/// ordinary executor, and counts each job from the moment it is queued to the moment it has run,
/// so the clock knows when every task that prefers this executor has suspended or ended.
///
/// A task runs on it when it is created with it as its executor preference
/// (`Task(executorPreference:)`, ``TestClock/startTask(priority:_:)``), inside
/// `withTaskExecutorPreference`, or as a child task (`async let`, task group) of such a task;
/// an unstructured `Task {}` made inside does not inherit it.
final class TestClockExecutor: Sendable {
    private let storage: TestClockStorage

    init(storage: TestClockStorage) {
        self.storage = storage
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension TestClockExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        storage.jobEnqueued()
        // The closure holds the executor until the job has run, whoever else lets go of it.
        DispatchQueue.global().async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
            storage.jobFinished()
        }
    }

    /// Whether the calling code runs in a task that prefers this executor.
    var isCurrent: Bool {
        let this = asUnownedTaskExecutor()
        return withUnsafeCurrentTask { task in
            task?.unownedTaskExecutor == this
        }
    }
}
