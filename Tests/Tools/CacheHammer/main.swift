// cache-hammer: a test-only tool that drives one DiskCache from its own process, so the cache tests
// can run many real processes on one cache directory and SIGKILL writers mid-write.
//
//   cache-hammer fetch-once DIR KEY SIZE   take KEY's lock; on a miss print "producing", wait for a line
//                                          on stdin, store a SIZE-byte payload, print "produced";
//                                          on a hit print "hit". Prints "requesting" before locking.
//   cache-hammer stress DIR SEED ROUNDS KEYS MAXSIZE
//                                          random stores, lookups (checking every byte) and removes;
//                                          prints "ok" or exits 1 on the first corrupt read.
//   cache-hammer write-loop DIR MAXSIZE    stores payloads forever, printing "stored N" after each.
//   cache-hammer bench-hits DIR ENTRIES SIZE LOOKUPS [DISTINCT]  time of a disk hit (see Bench.swift)
//   cache-hammer bench-stores DIR COUNT SIZE fsync|nofsync time of stores
//
// Payloads check themselves (see Payload.swift), so any reader can tell a whole file from a damaged one.
import Foundation
import ImageFetchKit
import TestSupport

/// Flushed at once: the parent test waits on these lines.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("cache-hammer: " + message + "\n").utf8))
    exit(1)
}

let info = CachedImageInfo(format: .png, width: 1, height: 1)
let arguments = CommandLine.arguments.dropFirst()

func openCache(_ directory: String, maxSize: Int64? = nil) -> DiskCache {
    do {
        return try DiskCache(directory: directory, configuration: DiskCacheConfiguration(maxSize: maxSize))
    } catch {
        fail("cannot open \(directory): \(error)")
    }
}

let words = Array(arguments)
func word(_ index: Int) -> String { index < words.count ? words[index] : "" }

do {
    switch (words.first ?? "", words.count) {
    case ("fetch-once", 4):
        let (directory, keyString, size) = (word(1), word(2), word(3))
        let cache = openCache(directory)
        let key = CacheKey(keyString)
        say("requesting")
        let outcome = try cache.withKeyLock(key) { () throws -> String in
            if let entry = try cache.entry(for: key) {
                guard Payload.isWhole(try cache.contents(of: entry)) else { fail("hit a damaged entry") }
                return "hit"
            }
            say("producing")
            _ = readLine()
            try cache.store(Data(Payload.make(seed: 1, size: Int(size) ?? 1000)), info: info, for: key, url: keyString)
            return "produced"
        }
        say(outcome)

    case ("stress", 6):
        let (directory, seedString, roundsString, keysString, maxSizeString) = (word(1), word(2), word(3), word(4), word(5))
        let cache = openCache(directory, maxSize: Int64(maxSizeString))
        var random = SplitMix(seed: UInt64(seedString) ?? 1)
        let keys = Int(keysString) ?? 20
        for round in 0..<(Int(roundsString) ?? 100) {
            let key = CacheKey("https://example.test/\(random.next() % UInt64(keys)).png")
            switch random.next() % 10 {
            case 0..<4:
                let payload = Payload.make(seed: random.next(), size: 200 + Int(random.next() % 20_000))
                try cache.store(Data(payload), info: info, for: key, url: key.rawValue)
            case 4:
                try cache.remove(key)
            default:
                guard let entry = try cache.entry(for: key) else { continue }
                // Another process may evict the file between lookup and read: that is a miss.
                guard let data = try? cache.contents(of: entry) else { continue }
                guard Payload.isWhole(data) else { fail("round \(round): \(entry.path) is damaged") }
            }
        }
        say("ok")

    case ("write-loop", 3):
        let (directory, maxSizeString) = (word(1), word(2))
        let cache = openCache(directory, maxSize: Int64(maxSizeString))
        var random = SplitMix(seed: UInt64(getpid()))
        // Made up front, so the loop is nothing but stores and a kill lands inside one.
        var payloads: [Data] = []
        for seed in 0..<16 {
            let size = 1000 + Int(random.next() % 200_000)
            payloads.append(Data(Payload.make(seed: UInt64(seed), size: size)))
        }
        var count = 0
        while true {
            let key = CacheKey("https://example.test/\(random.next() % 64).png")
            try cache.store(payloads[count % payloads.count], info: info, for: key, url: key.rawValue)
            count += 1
            say("stored \(count)")
        }

    case ("bench-hits", 5), ("bench-hits", 6):
        try Bench.hits(
            directory: word(1), entries: Int(word(2)) ?? 100, size: Int(word(3)) ?? 4096,
            lookups: Int(word(4)) ?? 10_000, distinct: Int(word(5)))

    case ("bench-stores", 5):
        try Bench.stores(directory: word(1), count: Int(word(2)) ?? 1000, size: Int(word(3)) ?? 280_000, powerLoss: word(4) == "fsync")

    default:
        fail("usage: cache-hammer fetch-once|stress|write-loop ... (see main.swift)")
    }
} catch {
    fail("\(error)")
}
