/// A listener delivery that a blocking thread can hold up (see ``ListenerDelivery``).
protocol ListenersBlocking: AnyObject, Sendable {
    /// A thread the delivery needs is about to block: promises stop waiting for the listeners.
    func listenersWillBlock()

    /// That thread woke up.
    func listenersDidUnblock()
}
