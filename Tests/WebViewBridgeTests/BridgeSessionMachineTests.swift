import SleepTimerCore
import Testing
@testable import WebViewBridge

@Suite struct BridgeSessionMachineTests {
    private typealias Machine = BridgeSessionMachine
    private typealias S = SessionFixtures

    private let first = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!
    private let second = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3302")!
    private let third = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3303")!

    /// A machine signed in as the fixtures' user, in self-mode.
    private func signedIn() -> Machine {
        var machine = Machine()
        _ = machine.sessionSet(S.session())
        return machine
    }

    private func purge(origin: String = S.origin, user: String = S.user) -> Machine.PurgeScope {
        Machine.PurgeScope(S.session(origin: origin, user: user))
    }

    // MARK: session.set

    @Test func itStartsSignedOut() {
        let machine = Machine()
        #expect(machine.session == nil)
        guard case .signedOut = machine.state else { Issue.record("not signed out"); return }
    }

    @Test func aFirstSignInClearsNothing() {
        var machine = Machine()
        #expect(machine.sessionSet(S.session()).isEmpty)
        #expect(machine.session?.scope == S.scope())
        guard case .signedIn = machine.state else { Issue.record("not signed in"); return }
    }

    @Test func aSwitchOfUserForgetsEveryTimerAndPurgesThePreviousUser() {
        var machine = signedIn()
        #expect(machine.sessionSet(S.session(user: S.otherUser)) == [.forgetAllTimers, .purge(purge())])
        #expect(machine.session?.userID == UserID(S.otherUser))
    }

    @Test func aSwitchOfPlatformOriginForgetsEveryTimerAndPurgesThePreviousOne() {
        var machine = signedIn()
        #expect(machine.sessionSet(S.session(origin: S.otherOrigin)) == [.forgetAllTimers, .purge(purge())])
        #expect(machine.session?.apiOrigin == (try! APIOrigin(parsing: S.otherOrigin)))
    }

    @Test func aSwitchOfBothPurgesThePreviousUserOnThePreviousPlatform() {
        var machine = signedIn()
        #expect(machine.sessionSet(S.session(origin: S.otherOrigin, user: S.otherUser))
            == [.forgetAllTimers, .purge(purge())])
    }

    @Test func aNewTokenForTheSameUserKeepsTheTimers() {
        var machine = signedIn()
        #expect(machine.sessionSet(S.session(token: "family-token-2")).isEmpty)
        #expect(machine.session?.accessToken.authorization == "Bearer family-token-2")
    }

    @Test func anotherFamilyOrModeOfTheSameUserKeepsTheTimers() {
        // The token rule refuses what such a session may not hand over or renew.
        var machine = signedIn()
        #expect(machine.sessionSet(S.session(mode: .coach)).isEmpty)
        #expect(machine.session?.actorMode == .coach)
        #expect(machine.sessionSet(S.session(family: S.otherFamily)).isEmpty)
        #expect(machine.session?.familySubjectID == FamilySubjectID(S.otherFamily))
    }

    // MARK: session.clear

    @Test func aSignOutForgetsEveryTimerAndPurgesTheUser() {
        var machine = signedIn()
        #expect(machine.sessionCleared() == [.forgetAllTimers, .purge(purge())])
        #expect(machine.session == nil)
        guard case .signedOut = machine.state else { Issue.record("not signed out"); return }
    }

    @Test func aSignOutWhenSignedOutClearsNothing() {
        var machine = Machine()
        #expect(machine.sessionCleared().isEmpty)
        var after = signedIn()
        _ = after.sessionCleared()
        #expect(after.sessionCleared().isEmpty)
    }

    @Test func aSignInAfterASignOutClearsNothingMore() {
        var machine = signedIn()
        _ = machine.sessionCleared()
        #expect(machine.sessionSet(S.session(user: S.otherUser)).isEmpty)
    }

    // MARK: sleepTimers.reconcile

    @Test func aReconcileForgetsTheMirroredTimersTheWebAppNoLongerLists() {
        let machine = signedIn()
        let actions = machine.reconciled(running: [second], mirrored: [first, second, third])
        #expect(Set(actions) == [first, third])
        #expect(actions.count == 2)
    }

    @Test func aReconcileListingEveryMirroredTimerForgetsNone() {
        let machine = signedIn()
        #expect(machine.reconciled(running: [first, second, third], mirrored: [first, third]).isEmpty)
        #expect(machine.reconciled(running: [], mirrored: []).isEmpty)
    }

    @Test func anEmptyListForgetsEveryMirroredTimer() {
        let machine = signedIn()
        #expect(machine.reconciled(running: [], mirrored: [first]) == [first])
    }

    @Test func aReconcileWithoutASessionForgetsNothing() {
        #expect(Machine().reconciled(running: [], mirrored: [first]).isEmpty)
    }

    // MARK: The bearer's shape

    @Test func anOrdinaryBearerIsAccepted() {
        #expect(Machine.bearer("eyJhbGciOiJIUzI1NiJ9.e30.c2ln")?.authorization == "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln")
        #expect(Machine.bearer("!~")?.authorization == "Bearer !~")
    }

    @Test func anEmptyBearerIsRefused() {
        #expect(Machine.bearer("") == nil)
    }

    @Test func aBearerIsAtMostTheLongestLength() {
        #expect(Machine.bearer(String(repeating: "a", count: BearerToken.maximumLength)) != nil)
        #expect(Machine.bearer(String(repeating: "a", count: BearerToken.maximumLength + 1)) == nil)
        // Counted in bytes: a two-byte letter counts twice.
        #expect(Machine.bearer(String(repeating: "é", count: BearerToken.maximumLength / 2 + 1)) == nil)
    }

    @Test func aBearerWithASpaceOrAControlCharacterIsRefused() {
        for text in ["a b", " a", "a\t", "a\nb", "a\r", "\u{0}a", "a\u{1F}", "a\u{7F}"] {
            #expect(Machine.bearer(text) == nil, "\(text.debugDescription)")
        }
    }

    @Test func theBearerNeverShowsInText() {
        let bearer = Machine.bearer("family-token-1")!
        #expect("\(bearer)" == "BearerToken(redacted)")
        #expect(!String(reflecting: bearer).contains("family-token-1"))
    }
}
