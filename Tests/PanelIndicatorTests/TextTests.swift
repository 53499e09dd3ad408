import Testing
import PanelIndicator
import SleepTimerCore

/// The words on the item: title, tooltip and the templates behind them.
@Suite struct TextTests {
    let now = Fixtures.now

    @Test func theTooltipHasOneLinePerBabyWithTheElapsedTime() {
        let indicator = Fixtures.shown([
            Fixtures.timer(startedMinutesAgo: 97), Fixtures.timer(Fixtures.leo, name: "Leo", startedMinutesAgo: 12),
        ])
        let toolTip = indicator.toolTip(at: now)
        #expect(toolTip.title == "Dreams for Littles")
        #expect(toolTip.description == "Maya asleep · 1 h 37 min\nLeo asleep · 12 min")
    }

    @Test func theTooltipEscapesMarkupInNames() {
        let indicator = Fixtures.shown([Fixtures.timer(name: "<b>Leo</b> & Co")])
        #expect(indicator.toolTip(at: now).description == "&lt;b&gt;Leo&lt;/b&gt; &amp; Co asleep · 1 h 37 min")
    }

    @Test func theTitleLeavesTheMinutesOut() {
        let indicator = Fixtures.shown([
            Fixtures.timer(), Fixtures.timer(Fixtures.leo, name: "Leo", startedMinutesAgo: 3, phase: .failed),
        ])
        #expect(indicator.title == "Maya asleep, Couldn't save Leo's sleep. Open the app to finish")
    }

    @Test func theTitleIsPlainTextWithTheNameAsTyped() {
        #expect(Fixtures.shown([Fixtures.timer(name: "<b>Leo</b>")]).title == "<b>Leo</b> asleep")
    }

    @Test func statesOtherThanRunningShowNoElapsedTime() {
        let indicator = Fixtures.shown([Fixtures.timer(phase: .saved(minutes: 61))])
        // Markup: the apostrophe is escaped as GLib escapes it.
        #expect(indicator.toolTip(at: Fixtures.minutes(5)).description == "Maya&#39;s sleep saved · 1 h 1 min")
    }
}
