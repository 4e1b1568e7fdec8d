import FoundationEssentials

/// One thing imgfetch parses from bytes it did not make, as a fuzz target: `run` must accept any
/// input and return, whatever it is, without crashing, hanging or allocating past the limits.
///
/// The same targets serve libFuzzer (`scripts/fuzz`, `imgfetch-fuzz` built with
/// `-sanitize=fuzzer,address`) and the replay of saved inputs in the normal test suite
/// (`FuzzRegressionTests`), so a finding is replayed by exactly the code that found it.
public struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and the folders under `Tests/Fuzz/` use.
    public let name: String
    /// What it covers, for `scripts/fuzz --list`.
    public let summary: String
    /// Fixture files (in `Tests/Fixtures/`) whose names end with one of these seed its corpus;
    /// empty for targets seeded from `Tests/Fuzz/seeds/NAME/` only.
    public let seedSuffixes: [String]
    public let run: @Sendable (Data) -> Void

    /// Every target, in the order `scripts/fuzz` runs them.
    public static let all: [FuzzTarget] = [
        .validate, .decode, .urlList, .entryStamp, .cacheKey, .quantity, .index, .transformSpec, .httpHeaders, .envelope,
    ]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
