import KatanaRecording

/// A live inspector of the demo's store: its recorder's sink, and the page's address once served.
protocol LiveDemoInspection: Sendable {
    /// Where the store's recorder puts what it records.
    var sink: any RecordingSink<DemoState> { get }
    /// The page's address, once it is served.
    func address() async throws -> String
}
