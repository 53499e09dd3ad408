import SleepTimerCore
import Testing
@testable import WebViewBridge

@Suite struct TokenRequestRuleTests {
    private typealias Rule = TokenRequestRule
    private typealias S = SessionFixtures

    // MARK: The WebView's upsert

    @Test func theFamilyInSelfModeAsksForASleepTimersTokenWhenTheAgentAnswers() {
        #expect(Rule.upsert(actorMode: .selfMode, activity: .sleep, nameDisplayable: true, agentAnswers: true) == .ask)
    }

    @Test func aCoachViewingAsNeverAsksForAToken() {
        #expect(Rule.upsert(actorMode: .coach, activity: .sleep, nameDisplayable: true, agentAnswers: true)
            == .dontAsk(.coachViewAs))
        // The coach's reason comes first, whatever else is wrong.
        #expect(Rule.upsert(actorMode: .coach, activity: .pumping, nameDisplayable: false, agentAnswers: false)
            == .dontAsk(.coachViewAs))
    }

    @Test func onlyASleepTimerAsksForAToken() {
        for activity in [ActivityType.breastfeeding, .pumping] {
            #expect(Rule.upsert(actorMode: .selfMode, activity: activity, nameDisplayable: true, agentAnswers: true)
                == .dontAsk(.notSleep))
        }
    }

    @Test func aNameTheDesktopCannotShowAsksForNoToken() {
        #expect(Rule.upsert(actorMode: .selfMode, activity: .sleep, nameDisplayable: false, agentAnswers: true)
            == .dontAsk(.nameNotDisplayable))
    }

    @Test func noTokenIsAskedForWhenTheAgentDoesNotAnswer() {
        // A token nobody takes would only revoke the one the agent holds.
        #expect(Rule.upsert(actorMode: .selfMode, activity: .sleep, nameDisplayable: true, agentAnswers: false)
            == .dontAsk(.agentUnavailable))
    }

    @Test func theAgentIsAskedOnlyWhenItsAnswerCanStillDecide() {
        #expect(Rule.asksAgent(actorMode: .selfMode, activity: .sleep, nameDisplayable: true))
        #expect(!Rule.asksAgent(actorMode: .coach, activity: .sleep, nameDisplayable: true))
        #expect(!Rule.asksAgent(actorMode: .selfMode, activity: .breastfeeding, nameDisplayable: true))
        #expect(!Rule.asksAgent(actorMode: .selfMode, activity: .sleep, nameDisplayable: false))
    }

    @Test func theReasonsAreTheWordsTheWebViewReads() {
        #expect(Rule.Reason.coachViewAs.rawValue == "coach-view-as")
        #expect(Rule.Reason.notSleep.rawValue == "not-sleep")
        #expect(Rule.Reason.nameNotDisplayable.rawValue == "name-not-displayable")
        #expect(Rule.Reason.agentUnavailable.rawValue == "agent-unavailable")
        #expect(Rule.Reason.sessionChanged.rawValue == "session-changed")
    }

    // MARK: The hand-over and the renewal: the live session's own timers only

    @Test func theSameFamilysSessionInSelfModeStillAsks() {
        #expect(Rule.stillAsks(for: S.scope(), session: S.session()) == .ask)
        // A new bearer token for the same session changes nothing.
        #expect(Rule.stillAsks(for: S.scope(), session: S.session(token: "family-token-2")) == .ask)
    }

    @Test func aSessionThatEndedOrSwitchedAsksNoMore() {
        #expect(Rule.stillAsks(for: S.scope(), session: nil) == .dontAsk(.sessionChanged))
        #expect(Rule.stillAsks(for: S.scope(), session: S.session(mode: .coach)) == .dontAsk(.sessionChanged))
        #expect(Rule.stillAsks(for: S.scope(), session: S.session(family: S.otherFamily)) == .dontAsk(.sessionChanged))
        #expect(Rule.stillAsks(for: S.scope(), session: S.session(user: S.otherUser)) == .dontAsk(.sessionChanged))
        #expect(Rule.stillAsks(for: S.scope(), session: S.session(origin: S.otherOrigin)) == .dontAsk(.sessionChanged))
    }

    /// Moved from TokenRenewalsTests (now TokenRenewalMachineTests) with the rule it tested.
    @Test func onlyTheSameFamilysSessionInSelfModeRenews() {
        let own = S.scope()
        #expect(Rule.stillAsks(for: own, session: S.session()) == .ask)
        #expect(Rule.stillAsks(for: own, session: S.session(mode: .coach)) != .ask)
        #expect(Rule.stillAsks(for: own, session: S.session(family: S.otherFamily)) != .ask)
        #expect(Rule.stillAsks(for: own, session: S.session(user: S.otherUser)) != .ask)
    }
}
