import DesktopAppCore
import Testing

/// A burst of portal changes is applied once, at the idle turn after it.
@Suite struct AppearanceBurstMachineTests {
    func appearance(contrast: UInt32) -> DesktopAppearance {
        var appearance = DesktopAppearance()
        _ = appearance.set(.contrast, .unsigned(contrast))
        return appearance
    }

    @Test func theFirstChangeAsksForAnIdleTurnAndTheRestOfTheBurstDoesNot() {
        var burst = AppearanceBurstMachine()
        #expect(burst.changed() == .askForIdle)
        var asked = 0
        for _ in 0..<499 where burst.changed() != nil { asked += 1 }
        #expect(asked == 0)
    }

    @Test func theIdleTurnAppliesTheLastValuesOnce() {
        var burst = AppearanceBurstMachine()
        _ = burst.changed()
        #expect(burst.becameIdle(with: appearance(contrast: 1)) == .apply(appearance(contrast: 1)))
        #expect(burst.becameIdle(with: appearance(contrast: 1)) == nil)
    }

    @Test func aChangeAfterTheIdleTurnAsksForAnotherOne() {
        var burst = AppearanceBurstMachine()
        _ = burst.changed()
        _ = burst.becameIdle(with: appearance(contrast: 1))
        #expect(burst.changed() == .askForIdle)
        #expect(burst.becameIdle(with: appearance(contrast: 0)) == .apply(appearance(contrast: 0)))
    }

    @Test func aBurstThatEndsWhereItStartedAppliesNothing() {
        var burst = AppearanceBurstMachine()
        #expect(burst.becameIdle(with: appearance(contrast: 0)) == .apply(appearance(contrast: 0)))
        _ = burst.changed()
        for _ in 0..<250 { _ = burst.changed() }
        #expect(burst.becameIdle(with: appearance(contrast: 0)) == nil)
        #expect(burst.changed() == .askForIdle)
    }

    @Test func theFirstReadingIsAppliedEvenWhenNothingIsServed() {
        var burst = AppearanceBurstMachine()
        #expect(burst.becameIdle(with: DesktopAppearance()) == .apply(DesktopAppearance()))
    }
}
