import KatanaInspector
import KatanaRecording

/// What `--inspect` does in the Tools package's build of the service demo: serves the live store
/// with a `LiveInspector` (the root package's build says to run this one instead).
enum DemoInspection {
    /// A live inspector of the demo's store on the loopback address and `port`.
    static func start(port: Int) throws -> any LiveDemoInspection {
        let configuration = InspectorConfiguration(port: port)
        return Served(inspector: LiveInspector<DemoState>(configuration: configuration))
    }

    private struct Served: LiveDemoInspection {
        let inspector: LiveInspector<DemoState>

        var sink: any RecordingSink<DemoState> {
            inspector
        }

        func address() async throws -> String {
            try await inspector.serving().absoluteString
        }
    }
}
