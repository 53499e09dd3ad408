import DesktopAppCore
import Testing

/// The app's notices reach the backend GIO picks, and only there the body
/// is escaped where the server reads markup.
@Suite struct AppNoticeSurfaceRuleTests {
    let markupName = #"<a href="https://phish.example/login">Maya</a>"#

    @Test func gioPrefersThePortalThenGnomeShellsServiceThenFreedesktop() {
        #expect(AppNoticeSurfaceRule.surface(forced: nil, portalPreferred: true, gtkServerPresent: true) == .portal)
        #expect(AppNoticeSurfaceRule.surface(forced: nil, portalPreferred: false, gtkServerPresent: true) == .gtk)
        #expect(AppNoticeSurfaceRule.surface(forced: nil, portalPreferred: false, gtkServerPresent: false) == .freedesktop)
    }

    @Test func aForcedBackendIsTakenWhenItIsSupportedElseGiosOwnOrder() {
        #expect(AppNoticeSurfaceRule.surface(forced: "freedesktop", portalPreferred: true, gtkServerPresent: true) == .freedesktop)
        #expect(AppNoticeSurfaceRule.surface(forced: "gtk", portalPreferred: false, gtkServerPresent: false) == .freedesktop)
        #expect(AppNoticeSurfaceRule.surface(forced: "portal", portalPreferred: false, gtkServerPresent: true) == .gtk)
        #expect(AppNoticeSurfaceRule.surface(forced: "nonsense", portalPreferred: false, gtkServerPresent: false) == .freedesktop)
    }

    @Test func onlyAFreedesktopServerWithBodyMarkupOrUnaskedReadsMarkup() {
        #expect(AppNoticeSurfaceRule.readsMarkup(on: .freedesktop, capabilities: ["actions", "body", "body-markup"]))
        #expect(!AppNoticeSurfaceRule.readsMarkup(on: .freedesktop, capabilities: ["actions", "body"]))
        #expect(AppNoticeSurfaceRule.readsMarkup(on: .freedesktop, capabilities: nil))
        #expect(!AppNoticeSurfaceRule.readsMarkup(on: .gtk, capabilities: ["body-markup"]))
        #expect(!AppNoticeSurfaceRule.readsMarkup(on: .portal, capabilities: nil))
    }

    @Test func theKeepsRunningNoticeShowsAMarkupNameAsWrittenOnEverySurface() {
        let notice = AppText.keepsRunning(babyNames: [markupName])
        let escaped = AppNoticeSurfaceRule.body(notice, on: .freedesktop, capabilities: ["body-markup"])
        #expect(escaped.contains("&lt;a href=&quot;https://phish.example/login&quot;&gt;Maya&lt;/a&gt;"))
        #expect(!escaped.contains("<"))
        #expect(AppNoticeSurfaceRule.body(notice, on: .gtk, capabilities: nil) == notice)
        #expect(AppNoticeSurfaceRule.body(notice, on: .portal, capabilities: nil) == notice)
        #expect(AppNoticeSurfaceRule.body(notice, on: .freedesktop, capabilities: ["body"]) == notice)
    }
}
