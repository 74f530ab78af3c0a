import Testing

/// The reliability suites, run one test at a time.
///
/// Each storm keeps both cores of a small machine busy (several threads dispatching, a store's
/// queue draining, listeners and timers on dispatch queues) for seconds. Run side by side, they
/// hold the threads that Swift's tasks share with dispatch queues on Linux, and the other targets'
/// tests, waiting for a turn on those threads, run past their bounds on a busy machine. One after
/// another they take a little longer in all, and leave the rest of the suite a thread.
@Suite(.serialized) enum ReliabilityStorms {}
