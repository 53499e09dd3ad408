import AgentWorkflows
import Testing

@Suite struct AppActionRuleTests {
    /// A Quit that started the app would bring back what the person ended.
    @Test func quitReachesARunningAppOnlyAndNeverStartsIt() {
        #expect(AppActionRule.delivery(of: .quit) == .runningAppOnly)
    }

    @Test func backgroundMayStartTheApp() {
        #expect(AppActionRule.delivery(of: .background) == .startingTheApp)
    }

    /// The names are the app's own action names, which the call carries.
    @Test func theActionsAreCalledByTheAppsNames() {
        #expect(AppActionRule.AppAction.allCases.map(\.rawValue) == ["quit", "background"])
    }
}
