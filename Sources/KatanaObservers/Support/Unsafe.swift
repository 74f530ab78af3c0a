/// Every construct in this module that steps outside Swift's type and memory safety, and the
/// invariant each relies on. Each is here because a benchmark shows it pays (docs/PERFORMANCE.md,
/// "Unsafe constructs", keyed by benchmark); everything else in the module is safe Swift.
@usableFromInline
enum Unsafe {
    // MARK: - Reading the state in place

    /// Calls `body` with a pointer to `value`, valid only inside `body`: a state rule reads the one
    /// value it watches there, instead of copying the state.
    @inline(__always)
    static func withPointer<Value, Result>(to value: Value, _ body: (UnsafeRawPointer) -> Result) -> Result {
        withUnsafePointer(to: value) { body(UnsafeRawPointer($0)) }
    }

    /// The value at `keyPath` in the `Root` at `pointer`.
    ///
    /// Invariant: `pointer` points to a `Root` (rules for another state type are left out when the
    /// store starts) and is used inside the ``withPointer(to:_:)`` call that made it; `offset`, when
    /// given, is `MemoryLayout<Root>.offset(of: keyPath)`, the path's place when it is made of
    /// stored properties only.
    @inlinable @inline(__always)
    static func load<Root, Value>(_ keyPath: KeyPath<Root, Value>, at pointer: UnsafeRawPointer, offset: Int?) -> Value {
        if let offset {
            return pointer.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee
        }
        return pointer.assumingMemoryBound(to: Root.self).pointee[keyPath: keyPath]
    }

    // MARK: - References without reference counting

    /// An unretained reference to `object`, for ``borrow(_:_:)``.
    @inline(__always)
    static func unretained<Object: AnyObject>(_ object: Object) -> Unmanaged<Object> {
        Unmanaged.passUnretained(object)
    }

    /// Calls `body` on `object` through an unretained reference: no retain and release per call.
    ///
    /// Invariant: something else keeps `object` alive for the whole call (its owner holds the
    /// strong references next to the unretained ones).
    @inline(__always)
    static func borrow<Object: AnyObject, Result>(_ object: Unmanaged<Object>, _ body: (Object) -> Result) -> Result {
        object._withUnsafeGuaranteedRef(body)
    }
}
