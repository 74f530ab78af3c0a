/// One dispatched item, on its way through the store, and the promise to settle once it has been
/// handled.
struct Envelope: Sendable {
    /// The dispatched item.
    let item: any Dispatchable
    /// The promise to settle; nil for items nobody waits for (an interceptor's late `next` call).
    let promise: PromiseHandle?
    /// Whether the item has been through the interceptors already (an item an interceptor passed
    /// on later, or a replacement handed from one kind of path to the other).
    let skipsInterceptors: Bool
    /// The item's place in dispatch order: how many items the inbox had taken when it arrived. A
    /// replacement an interceptor passes on takes the place of the item it replaces.
    let sequence: UInt64
    /// Where the item comes from (see ``InterceptedItem``).
    let origin: OriginStamp
    /// What the store's dispatch context captured when the item was dispatched (or an interceptor
    /// put in its place), carried by its promise; nil without one. Read it only in a store that
    /// has a dispatch context: it takes the promise's lock.
    var context: CapturedContext? {
        promise?.dispatchContext
    }

    init(
        _ item: any Dispatchable,
        promise: PromiseHandle?,
        skipsInterceptors: Bool = false,
        sequence: UInt64 = 0,
        origin: OriginStamp = .outside
    ) {
        self.item = item
        self.promise = promise
        self.skipsInterceptors = skipsInterceptors
        self.sequence = sequence
        self.origin = origin
    }

    /// Rejects the promise with `error`.
    func reject(_ error: any Error) {
        promise?.settle(erased: .failure(error), replacing: item)
    }

    /// Rejects the promise because the store is gone.
    func rejectStoreGone() {
        reject(KatanaError.storeDeallocated(item: typeName(of: item)))
    }
}
