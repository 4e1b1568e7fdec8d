import CCurl
import FoundationEssentials

/// What a downloader's `Politeness` asks of the engine thread: transfers started host by host
/// (a limit per host, a wait between starts).
///
/// A transfer whose host cannot take it yet is parked, not put back in the queue, so the queue
/// goes on to other hosts: a list of many hosts keeps every other host busy while one waits.
/// Parked transfers start first, in the order they were taken, as soon as their host allows.
extension EngineLoop {
    struct HostSchedule {
        var running: [String: Int] = [:]
        var lastStart: [String: ContinuousClock.Instant] = [:]
        var parked: [Transfer] = []
    }

    /// Fills `clientID`'s free slots with transfers whose hosts allow them, parked ones first.
    func startTransfersHostsAllow(of clientID: UInt64, _ politeness: Politeness) {
        var schedule = hostSchedules[clientID] ?? HostSchedule()
        // A parked transfer cancelled meanwhile is no longer queued: it drops out here.
        schedule.parked.removeAll { !$0.isQueued }
        hostSchedules[clientID] = schedule
        var index = 0
        while index < (hostSchedules[clientID]?.parked.count ?? 0), hasFreeSlot(clientID) {
            let transfer = hostSchedules[clientID]!.parked[index]
            if allows(transfer.host, in: clientID, politeness) {
                hostSchedules[clientID]!.parked.remove(at: index)
                start(transfer)
            } else {
                index += 1
            }
        }
        while hasFreeSlot(clientID), let transfer = nextQueued(clientID) {
            if allows(transfer.host, in: clientID, politeness) {
                start(transfer)
            } else {
                hostSchedules[clientID, default: HostSchedule()].parked.append(transfer)
            }
        }
    }

    private func allows(_ host: String, in clientID: UInt64, _ politeness: Politeness) -> Bool {
        guard let schedule = hostSchedules[clientID] else { return true }
        if let limit = politeness.maxPerHost, schedule.running[host, default: 0] >= limit { return false }
        if let wait = politeness.waitBetweenRequests, let last = schedule.lastStart[host], clock.now - last < wait {
            return false
        }
        return true
    }

    func hostStarted(_ transfer: Transfer) {
        guard transfer.client.configuration.politeness.schedulesHosts else { return }
        hostSchedules[transfer.client.id, default: HostSchedule()].running[transfer.host, default: 0] += 1
        hostSchedules[transfer.client.id]!.lastStart[transfer.host] = clock.now
    }

    func hostStopped(_ transfer: Transfer) {
        guard transfer.client.configuration.politeness.schedulesHosts,
              let running = hostSchedules[transfer.client.id]?.running[transfer.host] else { return }
        hostSchedules[transfer.client.id]!.running[transfer.host] = running > 1 ? running - 1 : nil
    }

    /// When the earliest wait of a parked transfer's host ends, so the engine wakes for it.
    func nextHostWaitEnds() -> ContinuousClock.Instant? {
        var earliest: ContinuousClock.Instant?
        for (clientID, schedule) in hostSchedules where !schedule.parked.isEmpty {
            guard let wait = schedule.parked.first?.client.configuration.politeness.waitBetweenRequests else { continue }
            for transfer in schedule.parked {
                // A host whose wait is over waits for a running transfer to end instead, which wakes the engine.
                guard let last = hostSchedules[clientID]?.lastStart[transfer.host], last + wait > clock.now else { continue }
                earliest = min(earliest ?? last + wait, last + wait)
            }
        }
        return earliest
    }
}
