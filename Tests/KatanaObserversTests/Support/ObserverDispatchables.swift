import Foundation
import Katana
import KatanaObservers

// Katana-style items: updaters that conform to the four observer protocols and record, in the
// log, the values their failable initialisers received.

/// Dispatched at start: appends "start first".
struct StartFirst: StateUpdater, OnStartObserverDispatchable {
    init?() {}
    func updateState(_ state: inout ObsState) { state.log.append("start first") }
}

/// Dispatched at start: appends "start second".
struct StartSecond: StateUpdater, OnStartObserverDispatchable {
    init?() {}
    func updateState(_ state: inout ObsState) { state.log.append("start second") }
}

/// Its initialiser always declines, so it must never be dispatched.
struct DeclinesAtStart: StateUpdater, OnStartObserverDispatchable {
    init?() { return nil }
    func updateState(_ state: inout ObsState) { state.log.append("declined start ran") }
}

/// Records the `count` before and after the change: "count <old>-><new>".
struct CountChanged: StateUpdater, StateObserverDispatchable {
    let entry: String
    init?(prevState: any State, currentState: any State) {
        guard let old = prevState as? ObsState, let new = currentState as? ObsState else { return nil }
        entry = "count \(old.count)->\(new.count)"
    }
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// Declines unless the new `count` is even: "even <count>".
struct EvenCountOnly: StateUpdater, StateObserverDispatchable {
    let entry: String
    init?(prevState: any State, currentState: any State) {
        guard let new = currentState as? ObsState, new.count.isMultiple(of: 2) else { return nil }
        entry = "even \(new.count)"
    }
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// Records the `level` before and after the change: "level <old>-><new>".
struct LevelChanged: StateUpdater, StateObserverDispatchable {
    let entry: String
    init?(prevState: any State, currentState: any State) {
        guard let old = prevState as? ObsState, let new = currentState as? ObsState else { return nil }
        entry = "level \(old.level)->\(new.level)"
    }
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// Records the last log entry of the new state: "seen after <entry>"; declines right after its
/// own kind of entry, so that it does not trigger itself forever under an always-true rule.
struct SeenAfter: StateUpdater, StateObserverDispatchable {
    let entry: String
    init?(prevState: any State, currentState: any State) {
        guard let new = currentState as? ObsState else { return nil }
        let last = new.log.last ?? "nothing"
        guard !last.hasPrefix("seen after") else { return nil }
        entry = "seen after \(last)"
    }
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// Records the handled item and the states around it:
/// "dispatched <type>[ <tag>] <old count>-><new count>"; declines for a `Bump` tagged "skip".
struct DispatchSeen: StateUpdater, DispatchObserverDispatchable {
    let entry: String
    init?(dispatchedItem: any Dispatchable, prevState: any State, currentState: any State) {
        guard let old = prevState as? ObsState, let new = currentState as? ObsState else { return nil }
        let tag = (dispatchedItem as? Bump).map { " \($0.tag)" } ?? ""
        guard tag != " skip" else { return nil }
        entry = "dispatched \(type(of: dispatchedItem))\(tag) \(old.count)->\(new.count)"
    }
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// A second item for the same dispatch rule: "also dispatched <type>".
struct AlsoDispatchSeen: StateUpdater, DispatchObserverDispatchable {
    let entry: String
    init?(dispatchedItem: any Dispatchable, prevState: any State, currentState: any State) {
        entry = "also dispatched \(type(of: dispatchedItem))"
    }
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// Records the notification's "value": "note <name> <value>"; declines when "skip" is in userInfo.
struct NoteSeen: StateUpdater, NotificationObserverDispatchable {
    let entry: String
    init?(notification: Notification) {
        guard notification.userInfo?["skip"] == nil else { return nil }
        entry = "note \(notification.name.rawValue) \(notification.userInfo?["value"] as? String ?? "-")"
    }
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// Notes, in the `Shared` log posted as the notification's object, that its initialiser ran.
struct NoteProbe: StateUpdater, NotificationObserverDispatchable {
    init?(notification: Notification) {
        (notification.object as? Shared<[String]>)?.mutate { $0.append("probe ran") }
    }
    func updateState(_ state: inout ObsState) { state.log.append("probe") }
}

extension Notification.Name {
    static let obsPing = Notification.Name("obs.ping")
    static let obsPong = Notification.Name("obs.pong")
}
