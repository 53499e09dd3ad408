import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct DialogGuardTests {
    let web = "https://app.example.com"
    let other = "https://ads.example.net"

    func guarded() throws -> DialogGuard {
        DialogGuard(policy: NavigationPolicy(webOrigin: try APIOrigin(parsing: web)))
    }

    /// The hidden app shows nothing, whoever asks, a click or not.
    @Test func nothingWhileTheWindowIsHidden() throws {
        var dialogs = try guarded()
        for dialog in PageDialog.allCases {
            dialogs.personClickedInTopFrame(at: 1_000)
            let verdict = dialogs.decide(dialog, origin: dialog == .authentication ? web : nil, windowShown: false, now: 1_100)
            #expect(!verdict.allowed, "\(dialog)")
        }
        #expect(dialogs.decide(.print, origin: nil, windowShown: false, now: 1_200).refusal == .windowHidden)
    }

    /// A frame of another origin is refused where WebKit names it.
    @Test func aFrameOfAnotherOriginIsRefused() throws {
        var dialogs = try guarded()
        let verdict = dialogs.decide(.authentication, origin: other, windowShown: true, now: 0)
        #expect(verdict.refusal == .otherOrigin)
        #expect(verdict.log?.contains(other) == true)
        #expect(dialogs.decide(.authentication, origin: web, windowShown: true, now: 0).allowed)
    }

    /// WebKit does not say which frame asked for a print or a file chooser:
    /// only a person's click in the web app's page just before lets one through, once.
    @Test func printAndFileChooserNeedAPersonsClickInTheTopFrame() throws {
        var dialogs = try guarded()
        #expect(dialogs.decide(.print, origin: nil, windowShown: true, now: 10_000).refusal == .noPerson)
        dialogs.personClickedInTopFrame(at: 10_000)
        #expect(dialogs.decide(.print, origin: nil, windowShown: true, now: 10_500).allowed)
        #expect(dialogs.decide(.print, origin: nil, windowShown: true, now: 10_600).refusal == .noPerson, "one click, one dialog")
        dialogs.personClickedInTopFrame(at: 20_000)
        let late = 20_000 + DialogGuard.personLifetime.wholeMilliseconds + 1
        #expect(dialogs.decide(.fileChooser, origin: nil, windowShown: true, now: late).refusal == .noPerson)
        dialogs.personClickedInTopFrame(at: 30_000)
        #expect(dialogs.decide(.fileChooser, origin: nil, windowShown: true, now: 30_001).allowed)
    }

    /// A click at the same instant counts, and one exactly its lifetime old.
    @Test func aPersonsClickCountsFromItsInstantToTheEndOfItsLifetime() throws {
        var dialogs = try guarded()
        dialogs.personClickedInTopFrame(at: 10_000)
        #expect(dialogs.decide(.print, origin: nil, windowShown: true, now: 10_000).allowed)
        dialogs.personClickedInTopFrame(at: 20_000)
        let edge = 20_000 + DialogGuard.personLifetime.wholeMilliseconds
        #expect(dialogs.decide(.fileChooser, origin: nil, windowShown: true, now: edge).allowed)
    }

    /// Script dialogs in the shown window are WebKit's own, over the page.
    @Test func scriptDialogsShowInTheShownWindowOnly() throws {
        var dialogs = try guarded()
        #expect(dialogs.decide(.scriptDialog, origin: nil, windowShown: true, now: 0).allowed)
        #expect(dialogs.decide(.scriptDialog, origin: nil, windowShown: false, now: 0).refusal == .windowHidden)
    }

    @Test func permissionsAreAlwaysRefused() throws {
        var dialogs = try guarded()
        dialogs.personClickedInTopFrame(at: 0)
        #expect(dialogs.decide(.permission, origin: nil, windowShown: true, now: 1).refusal == .noneNeeded)
    }

    @Test func withoutAWebAppEverythingIsRefused() {
        var dialogs = DialogGuard(policy: nil)
        dialogs.personClickedInTopFrame(at: 0)
        for dialog in PageDialog.allCases {
            #expect(!dialogs.decide(dialog, origin: nil, windowShown: true, now: 1).allowed)
        }
    }

    /// A frame that asks in a loop makes one line per dialog, origin and minute.
    @Test func oneLogLinePerDialogOriginAndMinute() throws {
        var dialogs = try guarded()
        var lines: [String] = []
        for second in 0..<120 {
            for dialog in [PageDialog.print, .fileChooser] {
                if let line = dialogs.decide(dialog, origin: nil, windowShown: false, now: Int64(second) * 1_000).log {
                    lines.append(line)
                }
            }
            if let line = dialogs.decide(.authentication, origin: other, windowShown: true, now: Int64(second) * 1_000).log {
                lines.append(line)
            }
        }
        #expect(lines.count == 6, "\(lines)")
        #expect(lines[0] == "Refused a print dialog: the window is hidden. Further refusals of it are not logged for a minute.")
        #expect(lines.contains("Refused an authentication dialog from \(other): only the web app's own page may ask. "
            + "Further refusals of it are not logged for a minute."))
    }
}
