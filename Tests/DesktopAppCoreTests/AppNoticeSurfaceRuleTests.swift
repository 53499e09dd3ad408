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

    @Test func aFreedesktopServerWithBodyMarkupOrUnaskedReadsMarkupAndThePortalEitherWay() {
        #expect(AppNoticeSurfaceRule.reading(on: .freedesktop, capabilities: ["actions", "body", "body-markup"]) == .markup)
        #expect(AppNoticeSurfaceRule.reading(on: .freedesktop, capabilities: ["actions", "body"]) == .plainText)
        #expect(AppNoticeSurfaceRule.reading(on: .freedesktop, capabilities: nil) == .markup)
        #expect(AppNoticeSurfaceRule.reading(on: .gtk, capabilities: ["body-markup"]) == .plainText)
        // The portal's backend is unknown: GNOME's shows plain text, the GTK
        // one hands the body to a server that may read markup, KDE's to
        // Plasma's rich text.
        #expect(AppNoticeSurfaceRule.reading(on: .portal, capabilities: nil) == .eitherWay)
        #expect(AppNoticeSurfaceRule.reading(on: .portal, capabilities: ["body"]) == .eitherWay)
    }

    @Test func theKeepsRunningNoticeShowsAMarkupNameAsWrittenOrWithoutMarkupOnEverySurface() {
        let notice = AppText.keepsRunning(babyNames: [markupName])
        let escaped = AppNoticeSurfaceRule.body(notice, on: .freedesktop, capabilities: ["body-markup"])
        #expect(escaped.contains("&lt;a href=&quot;https://phish.example/login&quot;&gt;Maya&lt;/a&gt;"))
        #expect(!escaped.contains("<"))
        #expect(AppNoticeSurfaceRule.body(notice, on: .gtk, capabilities: nil) == notice)
        #expect(AppNoticeSurfaceRule.body(notice, on: .freedesktop, capabilities: ["body"]) == notice)
        let portal = AppNoticeSurfaceRule.body(notice, on: .portal, capabilities: nil)
        #expect(portal.contains("\u{FF1C}a href=\"https://phish.example/login\"\u{FF1E}Maya\u{FF1C}/a\u{FF1E}"))
        #expect(!portal.contains("<") && !portal.contains(">") && !portal.contains("&"))
    }
}
