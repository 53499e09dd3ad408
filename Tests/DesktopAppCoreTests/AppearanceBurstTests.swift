import DesktopAppCore
import Testing

/// A burst of portal changes is applied once, at the idle turn after it.
@Suite struct AppearanceBurstTests {
    func appearance(contrast: UInt32) -> DesktopAppearance {
        var appearance = DesktopAppearance()
        _ = appearance.set(.contrast, .unsigned(contrast))
        return appearance
    }

    @Test func theFirstChangeAsksForAnIdleTurnAndTheRestOfTheBurstDoesNot() {
        var burst = AppearanceBurst()
        #expect(burst.changed() == true)
        var asked = 0
        for _ in 0..<499 where burst.changed() { asked += 1 }
        #expect(asked == 0)
    }

    @Test func theIdleTurnAppliesTheLastValuesOnce() {
        var burst = AppearanceBurst()
        _ = burst.changed()
        #expect(burst.settle(appearance(contrast: 1)) == true)
        #expect(burst.settle(appearance(contrast: 1)) == false)
    }

    @Test func aChangeAfterTheIdleTurnAsksForAnotherOne() {
        var burst = AppearanceBurst()
        _ = burst.changed()
        _ = burst.settle(appearance(contrast: 1))
        #expect(burst.changed() == true)
        #expect(burst.settle(appearance(contrast: 0)) == true)
    }

    @Test func aBurstThatEndsWhereItStartedAppliesNothing() {
        var burst = AppearanceBurst()
        #expect(burst.settle(appearance(contrast: 0)) == true)
        _ = burst.changed()
        for _ in 0..<250 { _ = burst.changed() }
        #expect(burst.settle(appearance(contrast: 0)) == false)
        #expect(burst.changed() == true)
    }

    @Test func theFirstReadingIsAppliedEvenWhenNothingIsServed() {
        var burst = AppearanceBurst()
        #expect(burst.settle(DesktopAppearance()) == true)
    }
}
