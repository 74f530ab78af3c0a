import Katana

/// Where a Katana 2.x ``AsyncAction`` is in its life: started, finished, failed or part-way through.
@available(*, deprecated, message: "Use a SideEffect or AsyncSideEffect that dispatches one StateUpdater per outcome")
public enum AsyncActionState: Equatable, Sendable, CustomDebugStringConvertible {
    /// The operation has just started; only this dispatch runs the action's side effect.
    case loading
    /// The operation finished successfully.
    case completed
    /// The operation failed.
    case failed
    /// The operation is running and has done `percentage` of its work.
    case progress(percentage: Double)

    /// The percentage of a `progress` state; nil for the other states.
    public var progressPercentage: Double? {
        if case .progress(let percentage) = self {
            return percentage
        }
        return nil
    }

    /// The state's name, with the percentage for `progress`, as used at the end of an action's description.
    public var debugDescription: String {
        switch self {
        case .loading: return "loading"
        case .completed: return "completed"
        case .failed: return "failed"
        case .progress(let percentage): return "progress(\(percentage))"
        }
    }
}

/// The part of a Katana 2.x ``AsyncAction`` that does not depend on its concrete type: its async state.
@available(*, deprecated, message: "Use a SideEffect or AsyncSideEffect that dispatches one StateUpdater per outcome")
public protocol AnyAsyncAction {
    /// Which phase of the operation this instance describes.
    var state: AsyncActionState { get set }
}

/// A Katana 2.x action that describes an asynchronous operation in phases: one value of the action
/// type is dispatched for loading, then copies of it for progress, completion or failure, each
/// updating the state through its own function.
@available(*, deprecated, message: "Use a SideEffect or AsyncSideEffect that dispatches one StateUpdater per outcome")
public protocol AsyncAction: Action, AnyAsyncAction {
    /// The state after this action is dispatched in the `loading` state.
    func updatedStateForLoading(currentState: State) -> State
    /// The state after this action is dispatched in the `completed` state.
    func updatedStateForCompleted(currentState: State) -> State
    /// The state after this action is dispatched in the `failed` state.
    func updatedStateForFailed(currentState: State) -> State
    /// The state after this action is dispatched in a `progress` state.
    func updatedStateForProgress(currentState: State) -> State
    /// A copy of this action in the `completed` state, adjusted by `configuration`.
    func completedAction(_ configuration: (inout Self) -> Void) -> Self
    /// A copy of this action in the `failed` state, adjusted by `configuration`.
    func failedAction(_ configuration: (inout Self) -> Void) -> Self
    /// A copy of this action in the `progress` state with the given percentage.
    func progressAction(percentage: Double) -> Self
}

@available(*, deprecated, message: "Use a SideEffect or AsyncSideEffect that dispatches one StateUpdater per outcome")
extension AsyncAction {
    /// Picks the update function that matches the action's async state.
    public func updatedState(currentState: State) -> State {
        switch state {
        case .loading: return updatedStateForLoading(currentState: currentState)
        case .completed: return updatedStateForCompleted(currentState: currentState)
        case .failed: return updatedStateForFailed(currentState: currentState)
        case .progress: return updatedStateForProgress(currentState: currentState)
        }
    }

    /// Leaves the state unchanged on progress, for actions that do not report any.
    public func updatedStateForProgress(currentState: State) -> State {
        currentState
    }

    /// A copy of this action in the `completed` state, adjusted by `configuration` (by default unchanged).
    public func completedAction(_ configuration: (inout Self) -> Void = { _ in }) -> Self {
        var copy = self
        copy.state = .completed
        configuration(&copy)
        return copy
    }

    /// A copy of this action in the `failed` state, adjusted by `configuration` (by default unchanged).
    public func failedAction(_ configuration: (inout Self) -> Void = { _ in }) -> Self {
        var copy = self
        copy.state = .failed
        configuration(&copy)
        return copy
    }

    /// A copy of this action in the `progress` state with the given percentage.
    public func progressAction(percentage: Double) -> Self {
        var copy = self
        copy.state = .progress(percentage: percentage)
        return copy
    }

    /// The action's fully qualified type name followed by its async state, e.g. `App.Load.completed`.
    public var debugDescription: String {
        "\(String(reflecting: type(of: self))).\(state.debugDescription)"
    }
}
