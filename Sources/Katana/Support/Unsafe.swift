#if canImport(Glibc)
import Glibc
#endif
internal import KatanaThreadSlots

/// Every construct in this module that steps outside Swift's type and memory safety, and the one
/// invariant each relies on. Each is here because a benchmark shows it pays (the figures are in
/// docs/PERFORMANCE.md, "Unsafe constructs", keyed by benchmark). Outside this file the module
/// uses two `unsafelyUnwrapped` reads, each next to the check or ordering that makes it safe
/// (`DrainerSlot.withDrainer`, `TypedAsyncSideEffectRunner.run`), keeps the `Unmanaged` references
/// made here, and calls the standard library's scoped pointer APIs; everything else is safe Swift.
@usableFromInline
enum Unsafe {
    // MARK: - Reading one value of a state in place

    /// The value at `offset` bytes into `root`, read in place instead of through a key path.
    ///
    /// Invariant: `offset` is `MemoryLayout<Root>.offset(of: keyPath)` for a key path to a `Value`
    /// (a path of stored properties only), so a `Value` lives there.
    @inlinable @inline(__always)
    static func load<Root, Value>(_ type: Value.Type, at offset: Int, in root: Root) -> Value {
        withUnsafePointer(to: root) { pointer in
            UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee
        }
    }

    // MARK: - Known dynamic types

    /// `object` as a `T`, without a checked cast.
    ///
    /// Invariant: `object` is a `T`. Used where a `ManagedBuffer` subclass allocates itself
    /// (`create` returns the class it is called on, typed as the base class) and where a promise
    /// has just checked that its value type is `Void`.
    @inline(__always)
    static func downcast<Object: AnyObject, T: AnyObject>(_ object: Object, to type: T.Type) -> T {
        unsafeDowncast(object, to: T.self)
    }

    /// Calls `body` with the item inside the existential seen as a `T`, its dynamic type: the
    /// opened value reinterpreted as a `T` (docs/PERFORMANCE.md, "Side effects: no-op SideEffect").
    ///
    /// Invariant: the item's dynamic type is `T`: the engine keeps an item kind per dynamic type,
    /// and the closures a kind holds only ever see items of that type.
    @inline(__always)
    static func withConcrete<T: Dispatchable, Result>(
        _ item: any Dispatchable,
        as type: T.Type,
        _ body: (T) throws -> Result
    ) rethrows -> Result {
        func open<Opened: Dispatchable>(_ opened: Opened) throws -> Result {
            try body(unsafeBitCast(opened, to: T.self))
        }
        return try open(item)
    }

    /// The type `item`'s existential container records for the value it holds (for a class, the
    /// class it was stored as, possibly a superclass of its dynamic type), read from the container
    /// without opening it, which would project the value out of its box first (docs/PERFORMANCE.md,
    /// "Unsafe constructs").
    ///
    /// Invariant: an `any Dispatchable` is an opaque existential container, laid out as Swift's
    /// ABI fixes it: a value buffer of three words, then the held type's metadata, then the
    /// witness table. `UnsafeTests` checks this against the opened type for inline, boxed and
    /// class values.
    @inline(__always)
    static func storedType(of item: borrowing any Dispatchable) -> ObjectIdentifier {
        withUnsafePointer(to: item) { container in
            ObjectIdentifier(UnsafeRawPointer(container).load(fromByteOffset: 3 * MemoryLayout<UnsafeRawPointer>.stride, as: Any.Type.self))
        }
    }

    /// `value` as a `T`, bit for bit.
    ///
    /// Invariant: `Value` is `T` (the caller has compared the types).
    @inline(__always)
    static func cast<Value, T>(_ value: Value, to type: T.Type) -> T {
        unsafeBitCast(value, to: T.self)
    }

    /// The `()` value as a `Value`.
    ///
    /// Invariant: `Value` is `Void` (the caller has checked `Value.self == Void.self`).
    @inline(__always)
    static func void<Value>(as type: Value.Type) -> Value {
        unsafeBitCast((), to: Value.self)
    }

    // MARK: - Untyped pointers to the state

    /// Calls `body` with an untyped pointer to `state`, valid only inside `body`.
    ///
    /// Item kinds are not generic over the state type (docs/PERFORMANCE.md, "Updaters:
    /// back-to-back"), so an updater's applier receives the state through this pointer.
    @inline(__always)
    static func withStatePointer<S, Result>(_ state: inout S, _ body: (UnsafeMutableRawPointer) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointer(to: &state) { try body(UnsafeMutableRawPointer($0)) }
    }

    /// The state behind a pointer from ``withStatePointer(_:_:)``.
    ///
    /// Invariant: the pointer came from `withStatePointer` for a state of type `S`, and is used
    /// only inside that call.
    @inline(__always)
    static func state<S>(at pointer: UnsafeMutableRawPointer, as type: S.Type) -> UnsafeMutablePointer<S> {
        pointer.assumingMemoryBound(to: S.self)
    }

    // MARK: - References without reference counting

    /// Calls `body` on `object` through an unretained reference: no retain and release per call.
    ///
    /// Invariant: something else keeps `object` alive for the whole call (the caller holds the
    /// array it came from).
    @inline(__always)
    static func borrow<Object: AnyObject, Result>(_ object: Unmanaged<Object>, _ body: (Object) throws -> Result) rethrows -> Result {
        try object._withUnsafeGuaranteedRef(body)
    }

    /// An unretained reference to `object`, for ``borrow(_:_:)``.
    @inline(__always)
    static func unretained<Object: AnyObject>(_ object: Object) -> Unmanaged<Object> {
        Unmanaged.passUnretained(object)
    }

    /// `object` as an opaque pointer, for a thread-local slot (which holds a pointer, not a reference).
    ///
    /// Invariant: whoever stores the pointer keeps `object` alive for as long as the pointer is stored.
    @inline(__always)
    static func opaque(_ object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(object).toOpaque()
    }

    /// The object behind a pointer from ``opaque(_:)``.
    ///
    /// Invariant: the pointer came from `opaque` for an `Object` that is still alive.
    @inline(__always)
    static func object<Object: AnyObject>(at pointer: UnsafeMutableRawPointer, as type: Object.Type) -> Object {
        Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The calling thread's pointer in slot `index` of the C thread-local array
    /// (`KatanaThreadSlots`), to read or replace.
    ///
    /// Invariant: `0 <= index < ThreadSlot.capacity`, which every ``ThreadSlot`` case is
    /// (`ThreadLocalTests` checks it); the pointer is used on the calling thread only.
    @inline(__always)
    static func threadSlot(_ index: Int) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        katana_current_thread_slots() + index
    }

    // MARK: - The C allocator

    #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up at run time (the Glibc module does not export `malloc.h`).
    ///
    /// Invariant: the symbol, when present, is glibc's `int malloc_trim(size_t pad)`.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
        unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
    }
    #endif

    /// Asks the C allocator to give its free memory back to the system (see ``MemoryRelease``);
    /// does nothing where the allocator has no such call.
    static func releaseFreedMemory() {
        #if canImport(Glibc)
        _ = mallocTrim?(0)
        #endif
    }
}
