import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct AgentBusNameRuleTests {
    @Test func onTheHostTheAgentOwnsThePublicNameAloneAsTheDebHasIt() {
        #expect(AgentBusNameRule.owned(at: .host) == .publicOnly)
        #expect(AgentBusNameRule.owned(at: .host).names(public: "p", appScoped: "a") == ["p"])
    }

    @Test func insideAFlatpakItOwnsThePublicNameAndThenTheAppScopedOneThatActivationStarts() {
        #expect(AgentBusNameRule.owned(at: .flatpak(appID: "com.dreamsforlittles.App")) == .publicThenAppScoped)
        #expect(AgentBusNameRule.owned(at: .flatpak(appID: nil)).names(public: "p", appScoped: "a") == ["p", "a"])
    }
}
