@testable import DesktopAppCore
import SleepTimerCore
import Testing

/// A burst of portal changes is applied once, at the idle turn after it; a
/// flood at most once a period, the periods growing while it lasts, the
/// last values at a period's end.
@Suite struct AppearanceBurstMachineTests {
    let first = Duration.milliseconds(250)

    func appearance(contrast: UInt32) -> DesktopAppearance {
        var appearance = DesktopAppearance()
        _ = appearance.set(.contrast, .unsigned(contrast))
        return appearance
    }

    /// Applied once, its first period running.
    func applied(contrast: UInt32) -> AppearanceBurstMachine {
        var burst = AppearanceBurstMachine()
        _ = burst.becameIdle(with: appearance(contrast: contrast))
        return burst
    }

    @Test func theStandardPeriodsStartAtAQuarterOfASecondAndGrowToFour() {
        #expect(AppearanceBurstMachine().settings.periods == Backoff(first: .milliseconds(250), longest: .seconds(4)))
    }

    @Test func theFirstChangeAsksForAnIdleTurnAndTheRestOfTheBurstDoesNot() {
        var burst = AppearanceBurstMachine()
        #expect(burst.changed() == .askForIdle)
        var asked = 0
        for _ in 0..<499 where burst.changed() != nil { asked += 1 }
        #expect(asked == 0)
    }

    @Test func theIdleTurnAppliesTheLastValuesAndStartsTheFirstPeriod() {
        var burst = AppearanceBurstMachine(settings: .init(periods: Backoff(first: .milliseconds(400), longest: .seconds(1))))
        _ = burst.changed()
        #expect(burst.becameIdle(with: appearance(contrast: 1)) == .apply(appearance(contrast: 1), thenWait: .milliseconds(400)))
        #expect(burst.state.periodRunning)
        #expect(burst.state.periodsInARow == 1)
        #expect(burst.becameIdle(with: appearance(contrast: 1)) == nil)
    }

    @Test func anIdleTurnThatFindsTheStyleAsAppliedAppliesNothing() {
        var burst = AppearanceBurstMachine()
        _ = burst.becameIdle(with: appearance(contrast: 0))
        _ = burst.periodEnded(with: appearance(contrast: 0))
        _ = burst.changed()
        #expect(burst.becameIdle(with: appearance(contrast: 0)) == nil)
        #expect(!burst.state.periodRunning)
        #expect(burst.state.periodsInARow == 0)
    }

    @Test func changesWithinThePeriodAskForNothingAndAreAppliedOnceAtItsEndWithALongerPeriod() {
        var burst = applied(contrast: 0)
        var asked = 0
        for _ in 0..<5 where burst.changed() != nil { asked += 1 }
        #expect(asked == 0)
        #expect(burst.periodEnded(with: appearance(contrast: 1)) == .apply(appearance(contrast: 1), thenWait: .milliseconds(500)))
        #expect(burst.state.periodRunning)
        #expect(!burst.state.changedInPeriod)
        _ = burst.changed()
        #expect(burst.periodEnded(with: appearance(contrast: 0)) == .apply(appearance(contrast: 0), thenWait: .seconds(1)))
    }

    @Test func thePeriodsStopGrowingAtTheLongest() {
        var burst = applied(contrast: 0)
        var waits: [Duration] = []
        for flip in 1...8 {
            _ = burst.changed()
            if case .apply(_, let wait)? = burst.periodEnded(with: appearance(contrast: UInt32(flip % 2))) { waits.append(wait) }
        }
        #expect(waits == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4), .seconds(4), .seconds(4)])
    }

    /// Changes that end where the style was: the flood goes on, nothing applied.
    @Test func aPeriodWhoseChangesCancelOutAppliesNothingAndWaitsLonger() {
        var burst = applied(contrast: 0)
        _ = burst.changed()
        _ = burst.changed()
        #expect(burst.periodEnded(with: appearance(contrast: 0)) == .waitAgain(.milliseconds(500)))
        #expect(burst.state.periodRunning)
        #expect(burst.state.applied == appearance(contrast: 0))
        #expect(burst.changed() == nil)
    }

    @Test func aQuietPeriodEndsTheFloodAndTheNextChangeIsAppliedAtOnce() {
        var burst = applied(contrast: 0)
        _ = burst.changed()
        _ = burst.periodEnded(with: appearance(contrast: 1))
        #expect(burst.periodEnded(with: appearance(contrast: 1)) == nil)
        #expect(!burst.state.periodRunning)
        #expect(burst.state.periodsInARow == 0)
        #expect(burst.changed() == .askForIdle)
        #expect(burst.becameIdle(with: appearance(contrast: 0)) == .apply(appearance(contrast: 0), thenWait: first))
    }

    @Test func anIdleTurnWithinThePeriodWaitsForItsEnd() {
        var burst = applied(contrast: 0)
        #expect(burst.becameIdle(with: appearance(contrast: 1)) == nil)
        #expect(!burst.state.idleAskedFor)
        #expect(burst.state.changedInPeriod)
        #expect(burst.periodEnded(with: appearance(contrast: 1)) == .apply(appearance(contrast: 1), thenWait: .milliseconds(500)))
    }

    @Test func twentyFlipsASecondForTenSecondsAreAppliedAHandfulOfTimes() {
        // A flip every 50 ms; the period's timer fires when its time is up.
        var burst = AppearanceBurstMachine()
        var contrast: UInt32 = 0
        var applications = 0
        var periodEndsAt: Int64?
        func carry(_ wait: Duration, from now: Int64) { periodEndsAt = now + wait.wholeMilliseconds }
        if case .apply(_, let wait)? = burst.becameIdle(with: appearance(contrast: contrast)) {
            applications += 1
            carry(wait, from: 0)
        }
        for now in stride(from: Int64(0), through: 20_000, by: 50) {
            if let end = periodEndsAt, now >= end {
                periodEndsAt = nil
                switch burst.periodEnded(with: appearance(contrast: contrast)) {
                case .apply(_, let wait)?: applications += 1; carry(wait, from: now)
                case .waitAgain(let wait)?: carry(wait, from: now)
                case nil: break
                }
            }
            guard now > 0, now <= 10_000 else { continue }
            contrast ^= 1
            if burst.changed() == .askForIdle, case .apply(_, let wait)? = burst.becameIdle(with: appearance(contrast: contrast)) {
                applications += 1
                carry(wait, from: now)
            }
        }
        #expect(applications <= 8)
        #expect(burst.state.applied == appearance(contrast: contrast))
        #expect(!burst.state.periodRunning)
    }

    @Test func theFirstReadingIsAppliedEvenWhenNothingIsServed() {
        var burst = AppearanceBurstMachine()
        #expect(burst.becameIdle(with: DesktopAppearance()) == .apply(DesktopAppearance(), thenWait: first))
    }
}
