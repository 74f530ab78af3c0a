import Katana
import KatanaLegacy

/// The app's store, built the 2.x way.
///
/// The one edit from 2.x: `Store<AppState>` became `Store<AppState, DependenciesContainer>`.
func makeAppStore() -> Store<AppState, DependenciesContainer> {
    return Store<AppState, DependenciesContainer>(
        middleware: [
            requireLoginMiddleware,
            ActionLinker.middleware(for: appLinks),
            analyticsMiddleware,
            ActionLogger.middleware(blackList: [SetFilter.self], sink: { actionLog.append($0) }),
        ],
        dependencies: DependenciesContainer.self
    )
}
