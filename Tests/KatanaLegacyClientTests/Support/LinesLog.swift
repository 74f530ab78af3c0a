import Foundation

/// Lines the client apps' screens and side effects write from any thread; a test reads them back.
/// (Test support shared by the Katana 3.x and Katana 6 client files, not part of either app.)
final class LinesLog: @unchecked Sendable {
    // @unchecked: `storage` is only touched while holding `lock`.
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
