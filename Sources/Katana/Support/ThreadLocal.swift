#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A per-thread slot for one of the package's markers (which store drains on this thread, which
/// interceptor run is in progress, ...): an unretained reference to an object, nil on every new
/// thread. Whoever puts an object in the slot keeps it alive until it restores the slot.
struct ThreadLocal<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: the only stored property is a pthread key, set once, which every thread may use.
    private let key: pthread_key_t

    /// A new slot (a new pthread key).
    init() {
        var key = pthread_key_t()
        let code = pthread_key_create(&key, nil)
        if code != 0 {
            fatalError("Katana: pthread_key_create failed with error \(code); the process has run out of thread-local keys")
        }
        self.key = key
    }

    /// The object in this thread's slot, if any.
    var current: Object? {
        pthread_getspecific(key).map { Unsafe.object(at: $0, as: Object.self) }
    }

    /// The address of the object in this thread's slot, if any, to compare with a known one.
    @inline(__always)
    var currentPointer: UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// Puts `object` (or nil) in this thread's slot; returns what was there, for ``restore(_:)``.
    func replace(with object: Object?) -> Previous {
        let previous = Previous(pointer: pthread_getspecific(key))
        set(object.map { Unsafe.opaque($0) })
        return previous
    }

    /// Puts back what ``replace(with:)`` took out.
    func restore(_ previous: Previous) {
        set(previous.pointer)
    }

    /// What a slot held before ``replace(with:)``.
    struct Previous {
        fileprivate let pointer: UnsafeMutableRawPointer?
    }

    private func set(_ pointer: UnsafeMutableRawPointer?) {
        let code = pthread_setspecific(key, pointer)
        if code != 0 {
            fatalError("Katana: pthread_setspecific failed with error \(code); a thread-local slot is corrupted")
        }
    }
}
