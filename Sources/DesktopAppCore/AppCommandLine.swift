/// What a command line asks of the app. GApplication hands every launch's
/// arguments to the one running instance, which decides here.
public struct AppCommandLine: Sendable, Equatable {
    public enum Request: Sendable, Equatable {
        /// Show the window (the web app, or where it already is).
        case show
        case open(AppDeepLink)
        case help
        /// Refused, with the message for the caller's terminal; the window
        /// stays where it is. `link`, for a refused link, is what the window
        /// and the log say why with (never the caller's text itself).
        case refuse(String, link: AppDeepLink.Refusal?)
    }

    public let request: Request
    /// `--automation`: let WebKitWebDriver drive the window. Only the
    /// instance that starts with it honours it (see docs/SECURITY.md).
    public let automation: Bool
    /// The launch's activation token, which the app adds to its own
    /// command line from its environment (activationToken(environment:)).
    public let activationToken: String?

    public static let activationTokenOption = "--activation-token="

    /// The token a launcher left in the environment: xdg-activation's
    /// first, else the X11 startup id.
    public static func activationToken(environment: [String: String]) -> String? {
        for name in ["XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID"] {
            if let value = environment[name], !value.isEmpty,
                !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            {
                return value
            }
        }
        return nil
    }

    public init(arguments: [String]) {
        var automation = false
        var token: String?
        var links: [String] = []
        var help = false
        var unknown: String?
        var optionsEnded = false
        for argument in arguments.dropFirst() {
            if optionsEnded || !argument.hasPrefix("-") {
                links.append(argument)
                continue
            }
            if argument.hasPrefix(Self.activationTokenOption) {
                token = String(argument.dropFirst(Self.activationTokenOption.count))
                continue
            }
            switch argument {
            case "--": optionsEnded = true
            case "--help", "-h": help = true
            case "--automation": automation = true
            default: unknown = unknown ?? argument
            }
        }
        self.automation = automation
        activationToken = token.flatMap { $0.isEmpty ? nil : $0 }
        if let unknown {
            request = .refuse(AppText.commandLineUnknownOption(unknown), link: nil)
        } else if help {
            request = .help
        } else if links.count > 1 {
            request = .refuse(AppText.commandLineTooManyLinks(links.count), link: nil)
        } else if let text = links.first, AppDeepLink.isAppHome(text) {
            request = .show
        } else if let text = links.first {
            do {
                request = .open(try AppDeepLink(parsing: text))
            } catch {
                request = .refuse(AppText.commandLineLinkRefused(text, error), link: error)
            }
        } else {
            request = .show
        }
    }
}
