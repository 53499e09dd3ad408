import Testing
import SleepTimerCore

@Suite struct SplitMix64Tests {
    /// The reference sequence of SplitMix64 from seed 0.
    @Test func theSequenceIsSplitMix64s() {
        var random = SplitMix64(seed: 0)
        #expect([random.next(), random.next(), random.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    }

    @Test func aSeededSourceRepeatsAndTheSystemsDoesNot() {
        var one = RandomSource.seeded(9)
        var two = RandomSource.seeded(9)
        var reference = SplitMix64(seed: 9)
        let drawn = (0..<4).map { _ in one.next() }
        #expect(drawn == (0..<4).map { _ in two.next() })
        #expect(drawn == (0..<4).map { _ in reference.next() })
        var system = RandomSource.system
        var systemAgain = RandomSource.system
        #expect((0..<4).map { _ in system.next() } != (0..<4).map { _ in systemAgain.next() })
    }
}
