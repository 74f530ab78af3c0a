import Foundation
import Katana
import KatanaObservers
import KatanaTestSupport

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

/// An updater that appends its `entry` to the log: what the observer dispatchables below make of
/// what their initialisers received.
protocol LogsEntry: StateUpdater where StateType == ObsState {
    var entry: String { get }
}

extension LogsEntry {
    func updateState(_ state: inout ObsState) { state.log.append(entry) }
}

/// The states around a change, when both are the test stores' state.
private func obsStates(_ previous: any State, _ current: any State) -> (old: ObsState, new: ObsState)? {
    guard let old = previous as? ObsState, let new = current as? ObsState else { return nil }
    return (old, new)
}

/// A field of the test stores' state, whose changes ``FieldChanged`` records.
protocol ObsField {
    static var name: String { get }
    static func value(in state: ObsState) -> String
}

/// Records a field before and after the change: "<name> <old>-><new>".
struct FieldChanged<Field: ObsField>: LogsEntry, StateObserverDispatchable {
    let entry: String
    init?(prevState: any State, currentState: any State) {
        guard let (old, new) = obsStates(prevState, currentState) else { return nil }
        entry = "\(Field.name) \(Field.value(in: old))->\(Field.value(in: new))"
    }
}

enum CountField: ObsField {
    static let name = "count"
    static func value(in state: ObsState) -> String { "\(state.count)" }
}

enum LevelField: ObsField {
    static let name = "level"
    static func value(in state: ObsState) -> String { state.level }
}

/// Records the `count` before and after the change: "count <old>-><new>".
typealias CountChanged = FieldChanged<CountField>

/// Records the `level` before and after the change: "level <old>-><new>".
typealias LevelChanged = FieldChanged<LevelField>

/// Declines unless the new `count` is even: "even <count>".
struct EvenCountOnly: LogsEntry, StateObserverDispatchable {
    let entry: String
    init?(prevState: any State, currentState: any State) {
        guard let new = currentState as? ObsState, new.count.isMultiple(of: 2) else { return nil }
        entry = "even \(new.count)"
    }
}

/// Records the last log entry of the new state: "seen after <entry>"; declines right after its
/// own kind of entry, so that it does not trigger itself forever under an always-true rule.
struct SeenAfter: LogsEntry, StateObserverDispatchable {
    let entry: String
    init?(prevState: any State, currentState: any State) {
        guard let new = currentState as? ObsState else { return nil }
        let last = new.log.last ?? "nothing"
        guard !last.hasPrefix("seen after") else { return nil }
        entry = "seen after \(last)"
    }
}

/// Records the handled item and the states around it:
/// "dispatched <type>[ <tag>] <old count>-><new count>"; declines for a `Bump` tagged "skip".
struct DispatchSeen: LogsEntry, DispatchObserverDispatchable {
    let entry: String
    init?(dispatchedItem: any Dispatchable, prevState: any State, currentState: any State) {
        guard let (old, new) = obsStates(prevState, currentState) else { return nil }
        let tag = (dispatchedItem as? Bump).map { " \($0.tag)" } ?? ""
        guard tag != " skip" else { return nil }
        entry = "dispatched \(type(of: dispatchedItem))\(tag) \(old.count)->\(new.count)"
    }
}

/// A second item for the same dispatch rule: "also dispatched <type>".
struct AlsoDispatchSeen: LogsEntry, DispatchObserverDispatchable {
    let entry: String
    init?(dispatchedItem: any Dispatchable, prevState: any State, currentState: any State) {
        entry = "also dispatched \(type(of: dispatchedItem))"
    }
}

/// Records the notification's "value": "note <name> <value>"; declines when "skip" is in userInfo.
struct NoteSeen: LogsEntry, NotificationObserverDispatchable {
    let entry: String
    init?(notification: Notification) {
        guard notification.userInfo?["skip"] == nil else { return nil }
        entry = "note \(notification.name.rawValue) \(notification.userInfo?["value"] as? String ?? "-")"
    }
}

/// Notes, in the `LockedList` posted as the notification's object, that its initialiser ran.
struct NoteProbe: StateUpdater, NotificationObserverDispatchable {
    init?(notification: Notification) {
        (notification.object as? LockedList<String>)?.append("probe ran")
    }
    func updateState(_ state: inout ObsState) { state.log.append("probe") }
}

extension Notification.Name {
    static let obsPing = Notification.Name("obs.ping")
    static let obsPong = Notification.Name("obs.pong")
}
