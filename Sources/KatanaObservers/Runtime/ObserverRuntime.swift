import Dispatch
import Foundation
import Katana

/// The rules of one observer interceptor running in one store: created when the store starts,
/// released (with its notification observers) when the store is released.
///
/// `intercept` runs where the store runs the item's interceptors (the store's queue for state
/// updaters, the side effect's worker for side effects); the work of state and dispatch rules runs on
/// `queue`; notification rules run on the thread that posts the notification.
final class ObserverRuntime: @unchecked Sendable {
    // @unchecked: every stored property is a constant, except the notification tokens (only touched
    // in `init` and `deinit`; NotificationCenter is thread-safe) and the item-type memo (behind its
    // own lock: side effects' interceptors run concurrently, on the workers running them).
    private let context: any AnySideEffectContext
    private let stateRules: [StateRuleInstance]
    /// The same rules, unretained: `stateRules` keeps them alive (why: docs/PERFORMANCE.md,
    /// "Updaters: observer with 100 OnChange rules").
    private let borrowedStateRules: [Unmanaged<StateRuleInstance>]
    /// The context each state rule dispatches through, labelled with the rule, in the same order.
    private let stateRuleContexts: [any AnySideEffectContext]
    private let dispatchRules: [ObjectIdentifier: [(rule: DispatchRule, context: any AnySideEffectContext)]]
    private let center: NotificationCenter
    private let queue = DispatchQueue(label: "KatanaObservers.rules")
    private var tokens: [any NSObjectProtocol] = []
    /// The last item type `intercept` saw and whether it is a state updater: the protocol check is
    /// the expensive part, and a store mostly sees the same few types.
    private let memoLock = NSLock()
    private var lastItemType: ObjectIdentifier?
    private var lastItemIsUpdater = false

    init(rules: [ObserverRule], context: any AnySideEffectContext, center: NotificationCenter, reporter: @Sendable (String) -> Void) {
        self.context = context
        self.center = center
        // The store is initialising its interceptors, so its state exists: rules written for
        // another state type are reported once and left out.
        let storeStateType = type(of: context.getAnyState())
        var stateRules: [StateRuleInstance] = []
        var stateRuleContexts: [any AnySideEffectContext] = []
        var dispatchRules: [ObjectIdentifier: [(rule: DispatchRule, context: any AnySideEffectContext)]] = [:]
        var notificationRules: [(rule: NotificationRule, context: any AnySideEffectContext)] = []
        var startWork: [(work: @Sendable () -> [any Dispatchable], context: any AnySideEffectContext)] = []
        for rule in rules {
            // What a rule dispatches comes from it: interceptors read `.storeWork(label: "rule …")`.
            let ruleContext = context.labelled("rule \(rule.summary)")
            switch rule.trigger {
            case .start(let work):
                startWork.append((work, ruleContext))
            case .stateChange(let stateRule):
                if let rootType = stateRule.rootType, rootType != storeStateType {
                    reporter(
                        "KatanaObservers: the rule \(rule.summary) is written for \(String(reflecting: rootType)), "
                            + "but the store's state is \(String(reflecting: storeStateType)); it will never fire. "
                            + "Write the key path or closure for \(String(reflecting: storeStateType)), "
                            + "or use the rule in a store of that state type."
                    )
                    continue
                }
                stateRules.append(stateRule.makeInstance())
                stateRuleContexts.append(ruleContext)
            case .dispatch(let dispatchRule):
                dispatchRules[dispatchRule.itemType, default: []].append((dispatchRule, ruleContext))
            case .notification(let notificationRule):
                notificationRules.append((notificationRule, ruleContext))
            }
        }
        self.stateRules = stateRules
        self.stateRuleContexts = stateRuleContexts
        self.borrowedStateRules = stateRules.map { Unsafe.unretained($0) }
        self.dispatchRules = dispatchRules
        for (rule, ruleContext) in notificationRules {
            let token = center.addObserver(forName: rule.name, object: nil, queue: nil) { [weak self] notification in
                self?.received(notification, for: rule, dispatchingThrough: ruleContext)
            }
            tokens.append(token)
        }
        // Dispatched now, handled once the store is ready, in the order of the rules.
        for (work, ruleContext) in startWork {
            for item in work() {
                ruleContext.anyDispatch(item)
            }
        }
    }

    deinit {
        for token in tokens {
            center.removeObserver(token)
        }
    }

    /// Lets the item through, then checks the rules it may trigger.
    func intercept(_ item: any Dispatchable, next: InterceptorNext) throws {
        let itemType = ObjectIdentifier(type(of: item))
        let isUpdater = isStateUpdater(item, of: itemType)
        let matchingDispatchRules = dispatchRules.isEmpty ? nil : dispatchRules[itemType]
        let watchesState = isUpdater && !stateRules.isEmpty
        guard watchesState || matchingDispatchRules != nil else {
            try next(item)
            return
        }
        let needsStates = matchingDispatchRules?.contains(where: \.rule.needsStates) ?? false
        let before = context.getAnyState()
        try next(item)

        var work: [(reaction: @Sendable () -> [any Dispatchable], context: any AnySideEffectContext)] = []
        let after = context.getAnyState()
        if watchesState {
            // Both states opened once for all the rules; each rule reads what it watches in place.
            StateView.with(before) { oldView in
                StateView.with(after) { newView in
                    for (index, rule) in borrowedStateRules.enumerated() {
                        if let reaction = Unsafe.borrow(rule, { $0.react(oldView, newView) }) {
                            work.append((reaction, stateRuleContexts[index]))
                        }
                    }
                }
            }
        }
        if let matchingDispatchRules {
            let current: (any State)? = needsStates ? after : nil
            let previousState: (any State)? = needsStates ? before : nil
            for (rule, ruleContext) in matchingDispatchRules {
                work.append(({ rule.make(item, previousState, current) }, ruleContext))
            }
        }
        guard !work.isEmpty else { return }
        let reactions = work
        // What the rules dispatch carries the triggering item's dispatch context (the request
        // behind it), not what their queue's thread would capture.
        let triggerContext = InterceptedItem.currentDispatchContext
        // Until the reactions have dispatched what they make, the store is not idle: a shutdown
        // that lets work finish, and a test store settling, wait for them.
        let inProgress = context.beginOutsideWork()
        queue.async {
            for (reaction, ruleContext) in reactions {
                let dispatching = triggerContext.map { ruleContext.withDispatchContext($0) } ?? ruleContext
                for produced in reaction() {
                    dispatching.anyDispatch(produced)
                }
            }
            inProgress.end()
        }
    }

    /// Whether `item`, whose type is `itemType`, is a state updater (remembered for the last type).
    private func isStateUpdater(_ item: any Dispatchable, of itemType: ObjectIdentifier) -> Bool {
        memoLock.lock()
        if itemType == lastItemType {
            let isUpdater = lastItemIsUpdater
            memoLock.unlock()
            return isUpdater
        }
        memoLock.unlock()
        let isUpdater = item is any AnyStateUpdater
        memoLock.lock()
        lastItemType = itemType
        lastItemIsUpdater = isUpdater
        memoLock.unlock()
        return isUpdater
    }

    private func received(_ notification: Notification, for rule: NotificationRule, dispatchingThrough context: any AnySideEffectContext) {
        if let sender = rule.sender {
            guard let expected = sender.object, let actual = notification.object as AnyObject?, expected === actual else { return }
        }
        // Runs on the posting thread (never the store's queue unless the poster is on it):
        // `Notification` is not Sendable, so it is not handed to another queue.
        for produced in rule.make(notification) {
            context.anyDispatch(produced)
        }
    }
}
