import DesktopAppCore
import Testing

/// The app's notices reach the backend GIO picks, and only there the body
/// is escaped where the server reads markup.
@Suite struct AppNoticeSurfaceTests {
    let markupName = #"<a href="https://phish.example/login">Maya</a>"#

    @Test func gioPrefersThePortalThenGnomeShellsServiceThenFreedesktop() {
        #expect(AppNoticeSurface.chosen(forced: nil, portalPreferred: true, gtkServerPresent: true) == .portal)
        #expect(AppNoticeSurface.chosen(forced: nil, portalPreferred: false, gtkServerPresent: true) == .gtk)
        #expect(AppNoticeSurface.chosen(forced: nil, portalPreferred: false, gtkServerPresent: false) == .freedesktop)
    }

    @Test func aForcedBackendIsTakenWhenItIsSupportedElseGiosOwnOrder() {
        #expect(AppNoticeSurface.chosen(forced: "freedesktop", portalPreferred: true, gtkServerPresent: true) == .freedesktop)
        #expect(AppNoticeSurface.chosen(forced: "gtk", portalPreferred: false, gtkServerPresent: false) == .freedesktop)
        #expect(AppNoticeSurface.chosen(forced: "portal", portalPreferred: false, gtkServerPresent: true) == .gtk)
        #expect(AppNoticeSurface.chosen(forced: "nonsense", portalPreferred: false, gtkServerPresent: false) == .freedesktop)
    }

    @Test func onlyAFreedesktopServerWithBodyMarkupOrUnaskedReadsMarkup() {
        #expect(AppNoticeSurface.freedesktop.readsMarkup(capabilities: ["actions", "body", "body-markup"]))
        #expect(!AppNoticeSurface.freedesktop.readsMarkup(capabilities: ["actions", "body"]))
        #expect(AppNoticeSurface.freedesktop.readsMarkup(capabilities: nil))
        #expect(!AppNoticeSurface.gtk.readsMarkup(capabilities: ["body-markup"]))
        #expect(!AppNoticeSurface.portal.readsMarkup(capabilities: nil))
    }

    @Test func theKeepsRunningNoticeShowsAMarkupNameAsWrittenOnEverySurface() {
        let notice = AppText.keepsRunning(babyNames: [markupName])
        let escaped = AppNoticeSurface.freedesktop.body(notice, capabilities: ["body-markup"])
        #expect(escaped.contains("&lt;a href=&quot;https://phish.example/login&quot;&gt;Maya&lt;/a&gt;"))
        #expect(!escaped.contains("<"))
        #expect(AppNoticeSurface.gtk.body(notice, capabilities: nil) == notice)
        #expect(AppNoticeSurface.portal.body(notice, capabilities: nil) == notice)
        #expect(AppNoticeSurface.freedesktop.body(notice, capabilities: ["body"]) == notice)
    }
}
