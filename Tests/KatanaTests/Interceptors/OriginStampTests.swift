@testable import Katana
import KatanaTestSupport
import Testing

/// An envelope's one-word origin stands for the origin it was made from.
@Suite struct OriginStampTests {
    struct Fetch: SideEffect {
        func sideEffect(_ context: SideEffectContext<EmptyState, EmptySideEffectDependencyContainer>) throws {}
    }
    struct EmptyState: State {}

    @Test func eachStampReadsAsItsOrigin() {
        #expect(OriginStamp.outside.origin == .outside)
        #expect(OriginStamp.storeWork.origin == .storeWork(label: nil))
        #expect(OriginStamp.storeWork(label: "rule a").origin == .storeWork(label: "rule a"))
        #expect(OriginStamp.storeWork(label: "rule b").origin == .storeWork(label: "rule b"))
        // The same label twice is one number.
        #expect(OriginStamp.storeWork(label: "rule a") == OriginStamp.storeWork(label: "rule a"))
        let fetch = OriginStamp.dispatcher(Fetch.self)
        #expect(fetch != 0)
        #expect(OriginStamp.dispatcher(Fetch.self) == fetch)
        #expect(OriginStamp.sideEffect(dispatcher: fetch, sequence: 12).origin == .sideEffect(type: String(reflecting: Fetch.self), sequence: 12))
        #expect(OriginStamp.sideEffect(dispatcher: fetch, sequence: 0).origin == .sideEffect(type: String(reflecting: Fetch.self), sequence: 0))
    }

    @Test func aSequenceBeyond48BitsWrapsAndAFullTableReadsAsStoreWork() {
        let fetch = OriginStamp.dispatcher(Fetch.self)
        #expect(OriginStamp.sideEffect(dispatcher: fetch, sequence: 1 << 48 | 5).origin == .sideEffect(type: String(reflecting: Fetch.self), sequence: 5))
        #expect(OriginStamp.sideEffect(dispatcher: 0, sequence: 5) == .storeWork)
    }
}
