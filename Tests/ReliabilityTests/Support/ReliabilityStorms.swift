import Testing

/// The reliability suites, run one test at a time.
///
/// Each storm keeps both cores of a small machine busy (several threads dispatching, a store's
/// queue draining, listeners and timers on dispatch queues) for seconds. Run side by side, seven of
/// them held the threads that Swift's tasks share with dispatch queues on Linux, and the other
/// targets' tests, waiting for a turn on those threads, ran past their bounds beside two CPU hogs.
/// One after another they take about a fifth longer in all (35.6 s against 29.5 s on the 2-core
/// machine), and leave the rest of the suite a thread.
@Suite(.serialized) enum ReliabilityStorms {}
