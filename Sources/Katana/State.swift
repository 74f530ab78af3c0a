public protocol State: Sendable { init() }
