import Foundation
import Katana

/// Finds the ``SubscriberRegistry`` of a store, without changing the store: a process-wide map from
/// the store's identity to its registry.
///
/// Lifetimes: the store keeps its registry alive (through the listener the registry adds to it), the
/// map holds registries weakly, and a registry holds its store weakly. When the store is released
/// it drops its listeners, the registry goes, and its slot here is reclaimed by the next look-up.
/// A registry whose store is gone never serves a later store allocated at the same address: a
/// look-up checks the registry's store is the caller's.
///
/// Lock order: this directory's lock may be held while the store adds a listener (the store's own
/// lock); it is never taken while a registry's lock is held.
@available(*, deprecated, message: "Part of the Swift Flow store API; use addListener(_:)") final class SubscriberRegistryDirectory: @unchecked Sendable {
    // @unchecked: `slots` is only touched while holding `lock`.

    /// The process-wide directory.
    static let shared = SubscriberRegistryDirectory()

    private struct Slot {
        weak var registry: SubscriberRegistry?
    }

    private let lock = NSLock()
    /// Guarded by `lock`.
    private var slots: [ObjectIdentifier: Slot] = [:]

    /// The store's registry, created (and its listener added to the store) on first use.
    func registry(for store: any AnyStore) -> SubscriberRegistry {
        lock.lock()
        defer { lock.unlock() }
        reclaimSlots()
        if let registry = registered(for: store) {
            return registry
        }
        let registry = SubscriberRegistry(owner: store)
        store.addAnyListener { old, new in
            registry.publish(old: old, new: new)
        }
        slots[ObjectIdentifier(store)] = Slot(registry: registry)
        return registry
    }

    /// The store's registry, if anything ever subscribed to it.
    func existingRegistry(for store: any AnyStore) -> SubscriberRegistry? {
        lock.lock()
        defer { lock.unlock() }
        return registered(for: store)
    }

    /// How many stores have a registry (for tests).
    var registeredStores: Int {
        lock.lock()
        defer { lock.unlock() }
        reclaimSlots()
        return slots.count
    }

    /// Called with `lock` held. The registry's owner is either `store` (alive: the caller holds it)
    /// or gone, so reading it here never releases the last reference to a store.
    private func registered(for store: any AnyStore) -> SubscriberRegistry? {
        guard let registry = slots[ObjectIdentifier(store)]?.registry, registry.owner === store else {
            return nil
        }
        return registry
    }

    /// Called with `lock` held: drops the slots of registries that have gone with their store.
    private func reclaimSlots() {
        slots = slots.filter { $0.value.registry != nil }
    }
}
