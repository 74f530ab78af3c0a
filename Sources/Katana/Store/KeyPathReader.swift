/// Reads the value at a key path of a state, for the key-path listeners and sequences: in place at
/// its fixed offset when the path is made of stored properties only, through the key path
/// otherwise (docs/PERFORMANCE.md, "Updaters: 100 key-path listeners").
@usableFromInline
struct KeyPathReader<Root, Value>: Sendable {
    @usableFromInline let keyPath: KeyPath<Root, Value> & Sendable
    /// The value's place in a `Root`, or nil when the path has no fixed place (a computed
    /// property, an array element).
    @usableFromInline let offset: Int?

    @inlinable
    init(_ keyPath: KeyPath<Root, Value> & Sendable) {
        self.keyPath = keyPath
        offset = MemoryLayout<Root>.offset(of: keyPath)
    }

    /// The value at the path in `root`.
    @inlinable
    func read(_ root: Root) -> Value {
        if let offset {
            return Unsafe.load(Value.self, at: offset, in: root)
        }
        return root[keyPath: keyPath]
    }
}
