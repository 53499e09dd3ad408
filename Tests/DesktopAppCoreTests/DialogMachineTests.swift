@testable import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct DialogMachineTests {
    let web = "https://app.example.com"
    let other = "https://ads.example.net"

    func guarded() throws -> DialogMachine {
        DialogMachine(rule: NavigationRule(webOrigin: try APIOrigin(parsing: web)))
    }

    /// The hidden app shows nothing, whoever asks, a click or not.
    @Test func nothingWhileTheWindowIsHidden() throws {
        var dialogs = try guarded()
        for dialog in PageDialog.allCases {
            dialogs.personClickedInTopFrame(at: moment(1_000))
            let verdict = dialogs.dialogAsked(dialog, origin: dialog == .authentication ? web : nil, windowShown: false, at: moment(1_100))
            #expect(!verdict.allowed, "\(dialog)")
        }
        #expect(dialogs.dialogAsked(.print, origin: nil, windowShown: false, at: moment(1_200)).refusal == .windowHidden)
    }

    /// A frame of another origin is refused where WebKit names it.
    @Test func aFrameOfAnotherOriginIsRefused() throws {
        var dialogs = try guarded()
        let verdict = dialogs.dialogAsked(.authentication, origin: other, windowShown: true, at: moment(0))
        #expect(verdict.refusal == .otherOrigin)
        #expect(verdict.log?.contains(other) == true)
        #expect(dialogs.dialogAsked(.authentication, origin: web, windowShown: true, at: moment(0)).allowed)
    }

    /// WebKit does not say which frame asked for a print or a file chooser:
    /// only a person's click in the web app's page just before lets one through, once.
    @Test func printAndFileChooserNeedAPersonsClickInTheTopFrame() throws {
        var dialogs = try guarded()
        #expect(dialogs.dialogAsked(.print, origin: nil, windowShown: true, at: moment(10_000)).refusal == .noPerson)
        dialogs.personClickedInTopFrame(at: moment(10_000))
        #expect(dialogs.dialogAsked(.print, origin: nil, windowShown: true, at: moment(10_500)).allowed)
        #expect(dialogs.dialogAsked(.print, origin: nil, windowShown: true, at: moment(10_600)).refusal == .noPerson, "one click, one dialog")
        dialogs.personClickedInTopFrame(at: moment(20_000))
        let late = 20_000 + DialogMachine.Settings().personLifetime.wholeMilliseconds + 1
        #expect(dialogs.dialogAsked(.fileChooser, origin: nil, windowShown: true, at: moment(late)).refusal == .noPerson)
        dialogs.personClickedInTopFrame(at: moment(30_000))
        #expect(dialogs.dialogAsked(.fileChooser, origin: nil, windowShown: true, at: moment(30_001)).allowed)
    }

    /// A click at the same instant counts, and one exactly its lifetime old.
    @Test func aPersonsClickCountsFromItsInstantToTheEndOfItsLifetime() throws {
        var dialogs = try guarded()
        dialogs.personClickedInTopFrame(at: moment(10_000))
        #expect(dialogs.dialogAsked(.print, origin: nil, windowShown: true, at: moment(10_000)).allowed)
        dialogs.personClickedInTopFrame(at: moment(20_000))
        let edge = 20_000 + DialogMachine.Settings().personLifetime.wholeMilliseconds
        #expect(dialogs.dialogAsked(.fileChooser, origin: nil, windowShown: true, at: moment(edge)).allowed)
    }

    /// A click reported at a later moment than the ask (the clock read
    /// out of order) vouches for nothing, and stays for the next ask.
    @Test func aClickLaterThanTheAskVouchesForNothing() throws {
        var dialogs = try guarded()
        dialogs.personClickedInTopFrame(at: moment(10_000))
        #expect(dialogs.dialogAsked(.print, origin: nil, windowShown: true, at: moment(9_999)).refusal == .noPerson)
        #expect(dialogs.state.personActed == moment(10_000))
        #expect(dialogs.dialogAsked(.print, origin: nil, windowShown: true, at: moment(10_001)).allowed)
        #expect(dialogs.state.personActed == nil)
    }

    /// Script dialogs in the shown window are WebKit's own, over the page.
    @Test func scriptDialogsShowInTheShownWindowOnly() throws {
        var dialogs = try guarded()
        #expect(dialogs.dialogAsked(.scriptDialog, origin: nil, windowShown: true, at: moment(0)).allowed)
        #expect(dialogs.dialogAsked(.scriptDialog, origin: nil, windowShown: false, at: moment(0)).refusal == .windowHidden)
    }

    @Test func permissionsAreAlwaysRefused() throws {
        var dialogs = try guarded()
        dialogs.personClickedInTopFrame(at: moment(0))
        #expect(dialogs.dialogAsked(.permission, origin: nil, windowShown: true, at: moment(1)).refusal == .noneNeeded)
    }

    @Test func withoutAWebAppEverythingIsRefused() {
        var dialogs = DialogMachine(rule: nil)
        dialogs.personClickedInTopFrame(at: moment(0))
        for dialog in PageDialog.allCases {
            #expect(!dialogs.dialogAsked(dialog, origin: nil, windowShown: true, at: moment(1)).allowed)
        }
    }

    /// A frame that asks in a loop makes one line per dialog, origin and minute.
    @Test func oneLogLinePerDialogOriginAndMinute() throws {
        var dialogs = try guarded()
        var lines: [String] = []
        for second in 0..<120 {
            for dialog in [PageDialog.print, .fileChooser] {
                if let line = dialogs.dialogAsked(dialog, origin: nil, windowShown: false, at: moment(Int64(second) * 1_000)).log {
                    lines.append(line)
                }
            }
            if let line = dialogs.dialogAsked(.authentication, origin: other, windowShown: true, at: moment(Int64(second) * 1_000)).log {
                lines.append(line)
            }
        }
        #expect(lines.count == 6, "\(lines)")
        #expect(lines[0] == "Refused a print dialog: the window is hidden. Further refusals of it are not logged for a minute.")
        #expect(lines.contains("Refused an authentication dialog from \(other): only the web app's own page may ask. "
            + "Further refusals of it are not logged for a minute."))
    }
}

/// What the old verdict said, read from an action: whether the dialog is
/// shown, the refusal, the log line.
extension DialogMachine.DialogAskedAction {
    var allowed: Bool { self == .show }

    var refusal: DialogMachine.Refusal? {
        guard case .refuse(let refusal, _) = self else { return nil }
        return refusal
    }

    var log: String? {
        guard case .refuse(_, let log) = self else { return nil }
        return log
    }
}
