import KatanaRecording

/// What `--inspect` does in this build of the demo: nothing but say where the inspector is. The
/// inspector's server needs the Tools package's dependencies, which the root package does not
/// take; the Tools package builds this demo again with `DemoInspection` serving the live store
/// (Tools/Sources/InspectedServiceDemo).
enum DemoInspection {
    /// A sink that serves the live store on `port`; here, an error that says which build has one.
    static func start(port: Int) throws -> any LiveDemoInspection {
        throw CommandLineOptions.UsageError(
            description: "--inspect serves the inspector, which is built by the Tools package: run "
                + "swift run --package-path Tools katana-inspected-demo --inspect (the same demo, with the same options)"
        )
    }
}
