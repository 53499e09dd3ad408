@testable import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct GlobalShortcutsMachineTests {
    typealias Machine = GlobalShortcutsMachine
    let session = "/org/freedesktop/portal/desktop/session/1_42/dfl_shortcuts_7"

    /// A machine brought to the moment BindShortcuts is asked for.
    func binding() -> Machine {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: true)
        _ = machine.versionAnswered(.success(1))
        _ = machine.sessionCreated(.answered(session))
        return machine
    }

    func bound() -> Machine {
        var machine = binding()
        _ = machine.bindAnswered(.answered([]))
        return machine
    }

    func logsOnly(_ actions: [Machine.Action]) -> [LogPriority] {
        actions.compactMap { if case .log(let priority, _) = $0 { return priority } else { return nil } }
    }

    // MARK: the portal on the bus

    @Test func onTheHostTheAppIDIsRegisteredFirst() {
        var machine = Machine()
        #expect(machine.portalAppeared(sandboxed: false) == .registerAppID)
        #expect(machine.state == .registering)
    }

    @Test func inASandboxTheVersionIsAskedAtOnce() {
        var machine = Machine()
        #expect(machine.portalAppeared(sandboxed: true) == .askVersion)
        #expect(machine.state == .askingVersion)
    }

    @Test func aPortalThatCameAgainIsAskedForEverythingAnew() {
        var machine = bound()
        #expect(machine.portalAppeared(sandboxed: false) == .registerAppID)
        #expect(machine.state == .registering)
        #expect(machine.activated(session: session, shortcutID: "complete-running-sleep") == nil)
    }

    @Test func aPortalThatLeftTakesItsSessionsActivationsWithIt() {
        var machine = bound()
        machine.portalLeft()
        #expect(machine.state == .idle)
        #expect(machine.activated(session: session, shortcutID: "complete-running-sleep") == nil)
        #expect(machine.sessionCreated(.answered(session)).isEmpty)
        #expect(machine.bindAnswered(.answered([])).isEmpty)
    }

    @Test func anAnswerOfAPortalThatLeftDoesNothing() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: false)
        machine.portalLeft()
        #expect(machine.registered(nil).isEmpty)
        #expect(machine.versionAnswered(.success(1)).isEmpty)
        #expect(machine.state == .idle)
    }

    // MARK: registered

    @Test func aRegisteredAppIDGoesOnToTheVersion() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: false)
        #expect(machine.registered(nil) == [.askVersion])
        #expect(machine.state == .askingVersion)
    }

    @Test func aPortalWithoutTheRegistryGoesOnSilently() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: false)
        #expect(machine.registered(.missing("No such interface")) == [.askVersion])
    }

    @Test func aRefusedRegistrationIsSaidAndTheBindingGoesOn() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: false)
        let actions = machine.registered(.failed("Connection already associated with an application ID"))
        #expect(actions.last == .askVersion)
        #expect(logsOnly(actions) == [.notice])
    }

    @Test func aLateRegistrationAnswerDoesNothing() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: true)
        #expect(machine.registered(nil).isEmpty)
        #expect(machine.state == .askingVersion)
    }

    // MARK: versionAnswered

    @Test func aVersionCreatesTheSession() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: true)
        #expect(machine.versionAnswered(.success(1)) == [.createSession])
        #expect(machine.state == .creatingSession)
    }

    @Test func noInterfaceIsOneLineNamingTheCommandForTheKeyboardSettings() throws {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: true)
        let actions = machine.versionAnswered(.failure(.missing("No such interface “org.freedesktop.portal.GlobalShortcuts”")))
        #expect(actions.count == 1)
        guard case .log(let priority, let line)? = actions.first else { Issue.record("no log line"); return }
        #expect(priority == .notice)
        #expect(line.contains("dfl-sleepctl complete --running"))
        #expect(line.contains("org.freedesktop.portal.GlobalShortcuts"))
        #expect(machine.state == .stopped)
    }

    // MARK: sessionCreated

    @Test func aSessionIsBoundIn() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: true)
        _ = machine.versionAnswered(.success(2))
        #expect(machine.sessionCreated(.answered(session)) == [.bind(session: session)])
        #expect(machine.state == .binding(session: session))
    }

    @Test func aRefusedSessionStopsWithOneLine() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: true)
        _ = machine.versionAnswered(.success(1))
        #expect(logsOnly(machine.sessionCreated(.refused(code: 2))) == [.notice])
        #expect(machine.state == .stopped)
    }

    @Test func aFailedCreateSessionStopsWithOneLine() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: true)
        _ = machine.versionAnswered(.success(1))
        let actions = machine.sessionCreated(.callFailed(.missing("Unknown method CreateSession")))
        #expect(logsOnly(actions) == [.notice])
        #expect(machine.state == .stopped)
    }

    // MARK: bindAnswered

    @Test func boundShortcutsAreLoggedWithTheirKeys() throws {
        var machine = binding()
        let actions = machine.bindAnswered(.answered([
            Machine.BoundShortcut(id: "complete-running-sleep", trigger: "Ctrl+Alt+Shift+S"),
            Machine.BoundShortcut(id: "open-running-sleep", trigger: ""),
        ]))
        #expect(machine.state == .bound(session: session))
        guard case .log(.info, let line)? = actions.first, actions.count == 1 else { Issue.record("\(actions)"); return }
        #expect(line.contains("complete-running-sleep on Ctrl+Alt+Shift+S"))
        #expect(line.contains("open-running-sleep (no keys yet"))
    }

    @Test func aShortcutTheDesktopLeftOutIsNamed() throws {
        var machine = binding()
        let actions = machine.bindAnswered(.answered([Machine.BoundShortcut(id: "complete-running-sleep", trigger: "Meta+S")]))
        guard case .log(_, let line)? = actions.first else { Issue.record("\(actions)"); return }
        #expect(line.contains("open-running-sleep (not taken by the desktop)"))
    }

    @Test func declinedShortcutsStopWithOneLine() throws {
        var machine = binding()
        let actions = machine.bindAnswered(.refused(code: 1))
        guard case .log(.notice, let line)? = actions.first, actions.count == 1 else { Issue.record("\(actions)"); return }
        #expect(line.contains("declined"))
        #expect(machine.state == .stopped)
    }

    @Test func gnome48sAnswerTwoWithTheBoundShortcutsIsTheBinding() throws {
        var machine = binding()
        let actions = machine.bindAnswered(.refused(code: 2, results: [
            Machine.BoundShortcut(id: "complete-running-sleep", trigger: "Press <Shift><Control><Alt>s"),
        ]))
        #expect(machine.state == .bound(session: session))
        guard case .log(.info, let line)? = actions.first, actions.count == 1 else { Issue.record("\(actions)"); return }
        #expect(line.contains("complete-running-sleep on Press <Shift><Control><Alt>s"))
    }

    @Test func answerTwoWithoutTheAgentsShortcutsStops() {
        for results: [Machine.BoundShortcut]? in [nil, [], [Machine.BoundShortcut(id: "quit", trigger: "Ctrl+Q")]] {
            var machine = binding()
            #expect(logsOnly(machine.bindAnswered(.refused(code: 2, results: results))) == [.notice])
            #expect(machine.state == .stopped)
        }
    }

    @Test func aDeclineIsADeclineWhateverItCarries() {
        var machine = binding()
        let ours = [Machine.BoundShortcut(id: "complete-running-sleep", trigger: "Ctrl+Alt+Shift+S")]
        #expect(logsOnly(machine.bindAnswered(.refused(code: 1, results: ours))) == [.notice])
        #expect(machine.state == .stopped)
    }

    @Test func aFailedBindStopsWithOneLine() {
        var machine = binding()
        #expect(logsOnly(machine.bindAnswered(.callFailed(.failed("Timeout")))) == [.notice])
        #expect(machine.state == .stopped)
    }

    @Test func aBindAnswerOutOfTurnDoesNothing() {
        var machine = Machine()
        _ = machine.portalAppeared(sandboxed: true)
        #expect(machine.bindAnswered(.answered([])).isEmpty)
        #expect(machine.state == .askingVersion)
    }

    // MARK: activated

    @Test func eachShortcutDoesWhatItNames() {
        let machine = bound()
        #expect(machine.activated(session: session, shortcutID: "complete-running-sleep") == .completeRunning)
        #expect(machine.activated(session: session, shortcutID: "open-running-sleep") == .openRunning)
    }

    @Test func anotherSessionsOrAnUnknownShortcutDoesNothing() {
        let machine = bound()
        #expect(machine.activated(session: session + "0", shortcutID: "complete-running-sleep") == nil)
        #expect(machine.activated(session: session, shortcutID: "quit") == nil)
    }

    @Test func beforeTheBindIsAnsweredNothingIsActivated() {
        #expect(binding().activated(session: session, shortcutID: "complete-running-sleep") == nil)
    }

    // MARK: the shortcuts

    @Test func theShortcutsAreTheTwoIdsWithDistinctTriggers() {
        #expect(Machine.Shortcut.allCases.map(\.rawValue) == ["complete-running-sleep", "open-running-sleep"])
        #expect(Set(Machine.Shortcut.allCases.map(\.preferredTrigger)).count == 2)
        #expect(Machine.Shortcut.allCases.allSatisfy { $0.preferredTrigger.hasPrefix("CTRL+ALT+SHIFT+") })
    }
}
