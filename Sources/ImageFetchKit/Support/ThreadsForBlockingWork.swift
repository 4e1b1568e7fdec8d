import Glibc

/// Threads for work that blocks outside Swift's cooperative pool and comes in runs (the plain
/// client's fetches, one per image of a batch): a thread stays after its job and waits a few
/// seconds for the next, so that a batch does not pay for a new thread, its stack's first page
/// faults and its exit for every image.
///
/// A job never waits behind another: one with no idle thread to take it gets a new thread.
final class ThreadsForBlockingWork: @unchecked Sendable {
    // Unchecked Sendable: every stored property is read and written under `mutex` only.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [@Sendable () -> Void] = []
    /// Threads waiting for a job and not yet woken for one.
    private var idle = 0
    /// Wake-ups sent and not yet taken by a waiting thread.
    private var wakeUps = 0
    private let name: String
    private let idleSeconds: Int

    init(name: String, idleSeconds: Int = 5) {
        self.name = name
        self.idleSeconds = idleSeconds
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    // Each thread holds the instance until it exits, so this runs only when none is left.
    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func run(_ job: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        jobs.append(job)
        let wakesIdleThread = idle > 0
        if wakesIdleThread {
            idle -= 1
            wakeUps += 1
            pthread_cond_signal(condition)
        }
        pthread_mutex_unlock(mutex)
        if !wakesIdleThread {
            DetachedThread.start(name: name) { [self] in work() }
        }
    }

    private func work() {
        pthread_mutex_lock(mutex)
        while true {
            if !jobs.isEmpty {
                // The queue holds at most the jobs started at once, a few dozen.
                let job = jobs.removeFirst()
                pthread_mutex_unlock(mutex)
                job()
                pthread_mutex_lock(mutex)
                continue
            }
            guard waitForWakeUp() else { break }
        }
        pthread_mutex_unlock(mutex)
    }

    /// Waits, holding `mutex` on return, until woken for a job (true) or idle too long (false).
    private func waitForWakeUp() -> Bool {
        idle += 1
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_sec += idleSeconds
        while wakeUps == 0 {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT, wakeUps == 0 {
                idle -= 1
                return false
            }
        }
        wakeUps -= 1
        return true
    }
}
