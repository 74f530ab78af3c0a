internal import KatanaThreadSlots

/// The package's per-thread slots, one per marker; each ``ThreadLocal`` uses one of them.
enum ThreadSlot: Int32, CaseIterable {
    /// The interceptor run in progress (``InterceptorChain``).
    case interceptorRun
    /// The side-effect worker loop of the thread.
    case workerLoop
    /// The worker pool the thread belongs to.
    case workerPool
    /// The listener delivery in progress.
    case delivery
    /// The store whose inbox the thread drains.
    case storeQueue

    /// How many slots the C array holds: every case's raw value is below it.
    static let capacity = Int32(KATANA_THREAD_SLOT_COUNT)
}

/// A per-thread slot for one of the package's markers (which store drains on this thread, which
/// interceptor run is in progress, ...): an unretained reference to an object, nil on every new
/// thread. Whoever puts an object in the slot keeps it alive until it restores the slot.
struct ThreadLocal<Object: AnyObject>: Sendable {
    private let slot: Int

    /// The slot `slot` (one ``ThreadLocal`` per slot: two would see each other's objects).
    init(_ slot: ThreadSlot) {
        self.slot = Int(slot.rawValue)
    }

    /// The calling thread's pointer in this slot.
    @inline(__always)
    private var pointer: UnsafeMutableRawPointer? {
        get { Unsafe.threadSlot(slot).pointee }
        nonmutating set { Unsafe.threadSlot(slot).pointee = newValue }
    }

    /// The object in this thread's slot, if any.
    @inline(__always)
    var current: Object? {
        pointer.map { Unsafe.object(at: $0, as: Object.self) }
    }

    /// The address of the object in this thread's slot, if any, to compare with a known one.
    @inline(__always)
    var currentPointer: UnsafeMutableRawPointer? {
        pointer
    }

    /// Puts `object` (or nil) in this thread's slot; returns what was there, for ``restore(_:)``.
    @inline(__always)
    func replace(with object: Object?) -> Previous {
        let previous = Previous(pointer: pointer)
        pointer = object.map { Unsafe.opaque($0) }
        return previous
    }

    /// Puts back what ``replace(with:)`` took out.
    @inline(__always)
    func restore(_ previous: Previous) {
        pointer = previous.pointer
    }

    /// What a slot held before ``replace(with:)``.
    struct Previous {
        fileprivate let pointer: UnsafeMutableRawPointer?
    }
}
