import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct NotificationSurfaceRuleTests {
    @Test func onTheHostTheServerTakesTheNotificationsAsTheDebHasIt() throws {
        #expect(try NotificationSurfaceRule.surface(at: .host, override: nil) == .server)
    }

    @Test func insideAFlatpakThePortalTakesThem() throws {
        #expect(try NotificationSurfaceRule.surface(at: .flatpak(appID: "com.dreamsforlittles.DreamsForLittles"), override: nil) == .portal)
        #expect(try NotificationSurfaceRule.surface(at: .flatpak(appID: nil), override: nil) == .portal)
    }

    @Test func theEnvironmentForcesEitherSurfaceWhereverTheAgentRuns() throws {
        #expect(try NotificationSurfaceRule.surface(at: .host, override: "portal") == .portal)
        #expect(try NotificationSurfaceRule.surface(at: .flatpak(appID: nil), override: "server") == .server)
    }

    @Test func anEmptyOverrideLeavesTheChoiceToThePlace() throws {
        #expect(try NotificationSurfaceRule.surface(at: .host, override: "") == .server)
        #expect(try NotificationSurfaceRule.surface(at: .flatpak(appID: nil), override: "") == .portal)
    }

    @Test func anOverrideThatNamesNoSurfaceIsRefusedWithTheNamesThatExist() {
        #expect(throws: NotificationSurfaceRule.UnknownSurface(value: "libnotify")) {
            try NotificationSurfaceRule.surface(at: .host, override: "libnotify")
        }
        let error = NotificationSurfaceRule.UnknownSurface(value: "Portal")
        #expect(error.description == "DFL_NOTIFICATION_SURFACE=Portal names no notification surface; use server or portal.")
    }

    @Test func thePortalAsAServerOffersButtonsAndOpenAsOneOfThemWithAPlainBody() {
        let portal = NotificationServer.portal(owner: ":1.9", version: 1)
        #expect(portal.owner == ":1.9")
        #expect(portal.displayName == "portal 1")
        #expect(portal.traits.actions)
        #expect(portal.traits.needsOpenButton)
        // GNOME's backend shows the body as plain text, the GTK one as its
        // server reads it (markup on xfce4-notifyd), KDE's as rich text.
        #expect(portal.traits.bodyReading == .eitherWay)
        #expect(!portal.traits.bodyMarkup)
        #expect(!portal.traits.bannersUnlessLowUrgency)
    }

    @Test func thePortalsElapsedTimeMovesOnTheMinuteOnlyWhenConfiguredOn() {
        let traits = NotificationServer.portal(owner: ":1.9", version: 2).traits
        #expect(!traits.updatesElapsedTime(.auto))
        #expect(traits.updatesElapsedTime(.on))
        #expect(!traits.updatesElapsedTime(.off))
    }
}
