import Synchronization

extension Mutex {
    /// The value made at the first call (`make` runs once, under the lock), for state a loader
    /// sets up only when a load first needs it.
    func opened<Wrapped>(orMade make: () -> Wrapped) -> Wrapped where Value == Wrapped? {
        withLock { opened in
            if let opened { return opened }
            let made = make()
            opened = made
            return made
        }
    }
}
