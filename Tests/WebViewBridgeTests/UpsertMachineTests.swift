import SleepTimerCore
import Testing
@testable import WebViewBridge

@Suite struct UpsertMachineTests {
    private typealias M = UpsertMachine

    /// The family's own Sleep timer with a name the desktop can show.
    private func machine(
        mode: Session.ActorMode = .selfMode, activity: ActivityType = .sleep, nameDisplayable: Bool = true
    ) -> M {
        M(actorMode: mode, activity: activity, nameDisplayable: nameDisplayable)
    }

    /// A machine whose page timer went to the platform, a token asked for
    /// when the agent answers.
    private func putting(agentAnswers: Bool = true, activity: ActivityType = .sleep) -> M {
        var m = machine(activity: activity)
        _ = m.agentAnswered(agentAnswers)
        return m
    }

    private let conflict = M.PlatformAnswer.refused(status: 409, code: "scope_conflict", named: .showable)
    private let storedWithToken = M.PlatformAnswer.stored(tokenIssued: true, sessionLive: true)

    // MARK: The agent's answer

    @Test func theAgentIsAskedOnlyWhenItsAnswerCanStillDecide() {
        #expect(machine().asksAgent)
        #expect(!machine(mode: .coach).asksAgent)
        #expect(!machine(activity: .pumping).asksAgent)
        #expect(!machine(nameDisplayable: false).asksAgent)
        #expect(!putting().asksAgent)
    }

    @Test func anAgentThatAnswersPutsTheTimerWithATokenRequest() {
        var m = machine()
        #expect(m.agentAnswered(true) == .putTimer(requestToken: true))
        #expect(m.state == .putting(.ask, adoptsCanonical: true))
    }

    @Test func noAgentPutsTheTimerWithoutATokenRequest() {
        var m = machine()
        #expect(m.agentAnswered(false) == .putTimer(requestToken: false))
        #expect(m.state == .putting(.dontAsk(.agentUnavailable), adoptsCanonical: true))
    }

    @Test func aCoachPutsTheTimerWithoutATokenRequest() {
        var m = machine(mode: .coach)
        #expect(m.agentAnswered(false) == .putTimer(requestToken: false))
        #expect(m.state == .putting(.dontAsk(.coachViewAs), adoptsCanonical: true))
    }

    @Test func theAgentsAnswerIsTakenOnce() {
        var m = putting()
        #expect(m.agentAnswered(true) == nil)
        #expect(m.state == .putting(.ask, adoptsCanonical: true))
    }

    // MARK: The platform's answer to the page's timer

    @Test func anUnreachablePlatformIsTheAnswer() {
        var m = putting()
        #expect(m.platformAnswered(.unreachable) == .reply(.unreachable))
        #expect(m.state == .answered)
    }

    @Test func aRefusalIsTheAnswer() {
        var m = putting()
        #expect(m.platformAnswered(.refused(status: 422, code: "invalid_timer", named: nil))
            == .reply(.refused(status: 422, code: "invalid_timer")))
        #expect(m.state == .answered)
    }

    @Test func aConflictNamingNoTimerIsARefusal() {
        var m = putting()
        #expect(m.platformAnswered(.refused(status: 409, code: "scope_conflict", named: nil))
            == .reply(.refused(status: 409, code: "scope_conflict")))
    }

    @Test func onlyA409ScopeConflictAdoptsTheTimerItNames() {
        var other = putting()
        #expect(other.platformAnswered(.refused(status: 409, code: "other_conflict", named: .showable))
            == .reply(.refused(status: 409, code: "other_conflict")))
        var notFound = putting()
        #expect(notFound.platformAnswered(.refused(status: 404, code: "scope_conflict", named: .showable))
            == .reply(.refused(status: 404, code: "scope_conflict")))
    }

    @Test func aStoredTimerWithNoTokenAskedForSaysWhy() {
        var m = putting(agentAnswers: false)
        #expect(m.platformAnswered(storedWithToken) == .reply(.saved(M.Native(.agentUnavailable))))
        #expect(m.state == .answered)
        var sport = putting(activity: .breastfeeding)
        #expect(sport.platformAnswered(storedWithToken) == .reply(.saved(M.Native(.notSleep))))
    }

    @Test func aStoredTimerWithItsTokenGoesToTheAgent() {
        var m = putting()
        #expect(m.platformAnswered(storedWithToken) == .mirror)
        #expect(m.state == .mirroring(conflict: false))
    }

    @Test func aStoredTimerWithoutATokenIsNotMirrored() {
        var m = putting()
        #expect(m.platformAnswered(.stored(tokenIssued: false, sessionLive: true))
            == .reply(.saved(M.Native(.tokenNotIssued))))
        #expect(m.state == .answered)
    }

    @Test func aTokenIsNotHandedOverForASessionThatEnded() {
        var m = putting()
        #expect(m.platformAnswered(.stored(tokenIssued: true, sessionLive: false))
            == .reply(.saved(M.Native(.sessionChanged))))
        #expect(m.state == .answered)
    }

    // MARK: The 409 scope_conflict

    @Test func aConflictWithNoTokenAskedForShowsTheNamedTimerAndWhy() {
        var m = putting(agentAnswers: false)
        #expect(m.platformAnswered(conflict) == .reply(.conflict(M.Native(.agentUnavailable), shows: .named)))
        #expect(m.state == .answered)
    }

    @Test func aConflictNamingATimerTheDesktopCannotShowIsNotMirrored() {
        var m = putting()
        #expect(m.platformAnswered(.refused(status: 409, code: "scope_conflict", named: .notShowable))
            == .reply(.conflict(M.Native(.tokenNotIssued, .canonicalNotShowable), shows: .named)))
        #expect(m.state == .answered)
    }

    @Test func aConflictNamingAShowableTimerPutsItInstead() {
        var m = putting()
        #expect(m.platformAnswered(conflict) == .putCanonical)
        #expect(m.state == .puttingCanonical)
    }

    @Test func theStoredCanonicalTimerGoesToTheAgent() {
        var m = putting()
        _ = m.platformAnswered(conflict)
        #expect(m.platformAnswered(storedWithToken) == .mirror)
        #expect(m.state == .mirroring(conflict: true))
    }

    @Test func theStoredCanonicalTimerWithoutATokenIsShownAsStored() {
        var m = putting()
        _ = m.platformAnswered(conflict)
        #expect(m.platformAnswered(.stored(tokenIssued: false, sessionLive: true))
            == .reply(.conflict(M.Native(.tokenNotIssued), shows: .stored)))
        var ended = putting()
        _ = ended.platformAnswered(conflict)
        #expect(ended.platformAnswered(.stored(tokenIssued: true, sessionLive: false))
            == .reply(.conflict(M.Native(.sessionChanged), shows: .stored)))
    }

    @Test func aRefusedCanonicalTimerShowsTheNamedOneAndWhy() {
        var m = putting()
        _ = m.platformAnswered(conflict)
        // A second conflict is not adopted again.
        #expect(m.platformAnswered(conflict)
            == .reply(.conflict(M.Native(.tokenNotIssued, .canonicalRefused(status: 409, code: "scope_conflict")),
                                shows: .named)))
        #expect(m.state == .answered)
    }

    @Test func anUnreachablePlatformForTheCanonicalTimerShowsTheNamedOne() {
        var m = putting()
        _ = m.platformAnswered(conflict)
        #expect(m.platformAnswered(.unreachable)
            == .reply(.conflict(M.Native(.tokenNotIssued, .canonicalUnreachable), shows: .named)))
        #expect(m.state == .answered)
    }

    @Test func thePlatformsAnswerIsTakenOnlyWhileAPutIsInFlight() {
        var asking = machine()
        #expect(asking.platformAnswered(storedWithToken) == nil)
        var answered = putting()
        _ = answered.platformAnswered(.unreachable)
        #expect(answered.platformAnswered(storedWithToken) == nil)
        var mirroring = putting()
        _ = mirroring.platformAnswered(storedWithToken)
        #expect(mirroring.platformAnswered(storedWithToken) == nil)
        #expect(mirroring.state == .mirroring(conflict: false))
    }

    // MARK: The agent's answer to the token

    @Test func aTokenTheAgentTookIsMirrored() {
        var m = putting()
        _ = m.platformAnswered(storedWithToken)
        #expect(m.mirrorAnswered(refusal: nil) == [.reply(.saved(M.Native(.mirrored)))])
        #expect(m.state == .answered)
    }

    @Test func aTokenTheAgentRefusedForgetsTheTimer() {
        var m = putting()
        _ = m.platformAnswered(storedWithToken)
        #expect(m.mirrorAnswered(refusal: "no agent")
            == [.forgetTimer, .reply(.saved(M.Native(.agentUnavailable, .agentRefused("no agent"))))])
        #expect(m.state == .answered)
    }

    @Test func theCanonicalTimersTokenAnswersTheConflict() {
        var took = putting()
        _ = took.platformAnswered(conflict)
        _ = took.platformAnswered(storedWithToken)
        #expect(took.mirrorAnswered(refusal: nil) == [.reply(.conflict(M.Native(.mirrored), shows: .stored))])
        var refused = putting()
        _ = refused.platformAnswered(conflict)
        _ = refused.platformAnswered(storedWithToken)
        #expect(refused.mirrorAnswered(refusal: "gone")
            == [.forgetTimer, .reply(.conflict(M.Native(.agentUnavailable, .agentRefused("gone")), shows: .stored))])
    }

    @Test func theAgentsAnswerToATokenIsTakenOnlyWhileItHasOne() {
        var m = putting()
        #expect(m.mirrorAnswered(refusal: nil) == [])
        #expect(m.state == .putting(.ask, adoptsCanonical: true))
    }

    // MARK: A renewal

    @Test func aRenewalAsksForATokenAndGoesToTheAgent() {
        var m = M.renewal()
        #expect(!m.asksAgent)
        #expect(m.state == .putting(.ask, adoptsCanonical: false))
        #expect(m.platformAnswered(storedWithToken) == .mirror)
    }

    @Test func aRenewalAdoptsNoCanonicalTimer() {
        var m = M.renewal()
        #expect(m.platformAnswered(conflict) == .reply(.refused(status: 409, code: "scope_conflict")))
    }

    // MARK: The wire

    @Test func theOutcomesAreTheWordsTheWebViewReads() {
        #expect(M.Outcome.mirrored.rawValue == "mirrored")
        #expect(M.Outcome.coachViewAs.rawValue == "coach-view-as")
        #expect(M.Outcome.notSleep.rawValue == "not-sleep")
        #expect(M.Outcome.nameNotDisplayable.rawValue == "name-not-displayable")
        #expect(M.Outcome.agentUnavailable.rawValue == "agent-unavailable")
        #expect(M.Outcome.sessionChanged.rawValue == "session-changed")
        #expect(M.Outcome.tokenNotIssued.rawValue == "token-not-issued")
    }

    @Test func everyReasonForNoTokenIsItsOwnOutcome() {
        let reasons: [TokenRequestRule.Reason] = [
            .coachViewAs, .notSleep, .nameNotDisplayable, .agentUnavailable, .sessionChanged,
        ]
        for reason in reasons { #expect(M.Outcome(reason).rawValue == reason.rawValue) }
    }
}
