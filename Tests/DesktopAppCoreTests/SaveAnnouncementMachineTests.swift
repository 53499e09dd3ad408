import DFLTestSupport
@testable import DesktopAppCore
import SleepTimerCore
import Testing

/// A sleep saved from the desktop is announced once, with its baby's name,
/// while the window is shown; nothing else is.
@Suite struct SaveAnnouncementMachineTests {
    let maya = SaveAnnouncementMachine.TimerName(timerID: "t-maya", babyName: "Maya")
    let leo = SaveAnnouncementMachine.TimerName(timerID: "t-leo", babyName: "Leo")

    func listing(_ timers: SaveAnnouncementMachine.TimerName...) -> SaveAnnouncementMachine {
        var announcement = SaveAnnouncementMachine()
        announcement.listed(timers)
        return announcement
    }

    @Test func aSleepSavedWhileTheWindowIsShownIsAnnouncedWithItsBabysName() {
        var announcement = listing(maya, leo)
        #expect(announcement.saved("t-maya") == .announce("Maya's sleep saved"))
        #expect(announcement.saved("t-leo", activityID: "a-2") == .announce("Leo's sleep saved"))
    }

    @Test func theSameCompletionIsAnnouncedOnce() {
        var announcement = listing(maya)
        #expect(announcement.saved("t-maya") == .announce("Maya's sleep saved"))
        #expect(announcement.saved("t-maya") == nil)
        #expect(announcement.saved("t-maya", activityID: "a-other") == nil)
    }

    @Test func theNameOutlivesTheListThatForgetsTheTimer() {
        // CompletionFinished comes before TimerRemoved; the List after it no
        // longer has the timer, and a repeat of the signal stays silent.
        var announcement = listing(maya)
        #expect(announcement.saved("t-maya") == .announce("Maya's sleep saved"))
        announcement.listed([])
        #expect(announcement.saved("t-maya") == nil)
    }

    @Test func nothingIsSaidWhileTheWindowIsHiddenNorLaterForIt() {
        var announcement = listing(maya)
        #expect(announcement.saved("t-maya", shown: false) == nil)
        #expect(announcement.saved("t-maya", shown: true) == nil)
    }

    @Test func onlyANewActivityIsNewsOfASave() {
        var announcement = listing(maya)
        #expect(announcement.saved("t-maya", outcome: "already-completed", activityID: "") == nil)
        #expect(announcement.saved("t-maya", outcome: "failed", activityID: "") == nil)
        #expect(announcement.saved("t-maya", activityID: "") == nil)
        // A failure is not the completion's end: a later save is still said.
        #expect(announcement.saved("t-maya") == .announce("Maya's sleep saved"))
    }

    @Test func anotherOutcomeWithAnActivityIsNoNewsOfASave() {
        var announcement = listing(maya)
        #expect(announcement.saved("t-maya", outcome: "already-completed") == nil)
        #expect(announcement.state.handled.isEmpty)
        #expect(announcement.saved("t-maya") == .announce("Maya's sleep saved"))
    }

    @Test func aCompletionWithoutATimerIdIsNotRemembered() {
        var announcement = listing(maya)
        #expect(announcement.saved("") == nil)
        #expect(announcement.state.handled.isEmpty)
    }

    @Test func aTimerNeverListedOrWithoutANameIsNotAnnounced() {
        var announcement = listing(SaveAnnouncementMachine.TimerName(timerID: "t-nameless", babyName: ""))
        #expect(announcement.saved("t-unknown") == nil)
        #expect(announcement.saved("t-nameless") == nil)
        #expect(announcement.saved("") == nil)
    }

    @Test func aCompletionThatFinishesAfterItsTimerLeftTheListIsAnnounced() {
        // A refresh from another device reconciled the timer away while its
        // completion was on its way; the completion finishes afterwards.
        var announcement = listing(maya, leo)
        announcement.listed([leo])
        announcement.listed([])
        #expect(announcement.saved("t-maya") == .announce("Maya's sleep saved"))
    }

    @Test func aListedNameIsTheLatest() {
        var announcement = listing(maya)
        announcement.listed([SaveAnnouncementMachine.TimerName(timerID: "t-maya", babyName: "Maja")])
        #expect(announcement.saved("t-maya") == .announce("Maja's sleep saved"))
    }

    @Test func theNamesOfTimersNoLongerListedAreBoundedOldestFirstAndTheListedOnesKept() {
        var announcement = listing(maya)
        let others = (0..<(SaveAnnouncementMachine.rememberedNames + 5)).map {
            SaveAnnouncementMachine.TimerName(timerID: "t-\($0)", babyName: "Baby \($0)")
        }
        // Maya stays listed throughout; the others come and go one by one.
        for other in others { announcement.listed([maya, other]) }
        announcement.listed([maya])
        #expect(announcement.state.names.count == SaveAnnouncementMachine.rememberedNames + 1)
        #expect(announcement.state.names["t-maya"] == "Maya")
        #expect(announcement.state.names["t-4"] == nil)
        #expect(announcement.state.names["t-5"] == "Baby 5")
        #expect(announcement.saved("t-0") == nil)
        #expect(announcement.saved("t-maya") == .announce("Maya's sleep saved"))
    }

    @Test func theHandledCompletionsAreBounded() {
        var announcement = SaveAnnouncementMachine()
        for index in 0..<(SaveAnnouncementMachine.rememberedCompletions + 10) {
            _ = announcement.saved("t-\(index)", shown: false)
        }
        #expect(announcement.state.handled.count == SaveAnnouncementMachine.rememberedCompletions)
        #expect(announcement.state.handled.first == "t-10")
    }

    @Test func theWordsAreTheReadersAndTheNameIsFilledAfterTheTranslation() {
        let german = DictionaryTranslator(messages: ["{name}'s sleep saved": "Schlaf von {name} gespeichert"], plurals: [:])
        let text = Localization.$scoped.withValue(german) { SaveAnnouncementText.sleepSaved(babyName: "{name} Maya") }
        #expect(text == "Schlaf von {name} Maya gespeichert")
    }
}

extension SaveAnnouncementMachine {
    /// The agent's CompletionFinished for `timerID`, a new activity by
    /// default, arriving while the window is shown.
    mutating func saved(_ timerID: String, outcome: String = "created", activityID: String = "a-1", shown: Bool = true)
        -> CompletionFinishedAction?
    {
        completionFinished(timerID: timerID, outcome: outcome, activityID: activityID, windowShown: shown)
    }
}
