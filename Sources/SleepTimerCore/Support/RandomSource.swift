/// SplitMix64: a small seeded generator, the project's one, so that a run
/// that drew random numbers (a backoff's jitter, a test's or a fuzzer's
/// inputs) can be repeated from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    public var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random numbers for a backoff's jitter: the system's in the programs, a
/// repeatable sequence in tests. Equal when both are the system's, or
/// seeded ones at the same point of their sequence, so that a machine can
/// keep one in its `State`.
public struct RandomSource: RandomNumberGenerator, Sendable, Equatable {
    /// nil: the system's generator.
    private var seeded: SplitMix64?

    /// The system's generator.
    public static var system: RandomSource { RandomSource(seeded: nil) }

    /// A repeatable sequence (SplitMix64), for tests.
    public static func seeded(_ seed: UInt64) -> RandomSource { RandomSource(seeded: SplitMix64(seed: seed)) }

    private init(seeded: SplitMix64?) {
        self.seeded = seeded
    }

    public mutating func next() -> UInt64 {
        guard var generator = seeded else {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
        defer { seeded = generator }
        return generator.next()
    }
}
