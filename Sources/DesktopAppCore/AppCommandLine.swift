/// What a command line asks of the app. GApplication hands every launch's
/// arguments to the one running instance, which decides here.
public struct AppCommandLine: Sendable, Equatable {
    public enum Request: Sendable, Equatable {
        /// Show the window (the web app, or where it already is).
        case show
        case open(AppDeepLink)
        case help
        /// Refused, with the message for the caller's terminal; the window
        /// stays where it is.
        case refuse(String)
    }

    public let request: Request
    /// `--automation`: let WebKitWebDriver drive the window. Only the
    /// instance that starts with it honours it (see docs/SECURITY.md).
    public let automation: Bool

    public init(arguments: [String]) {
        var automation = false
        var links: [String] = []
        var help = false
        var unknown: String?
        var optionsEnded = false
        for argument in arguments.dropFirst() {
            if optionsEnded || !argument.hasPrefix("-") {
                links.append(argument)
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
        if let unknown {
            request = .refuse("dreamsforlittles: Unknown option \(unknown).\n\(AppText.usage)")
        } else if help {
            request = .help
        } else if links.count > 1 {
            request = .refuse(AppText.commandLineTooManyLinks(links.count))
        } else if let text = links.first {
            do {
                request = .open(try AppDeepLink(parsing: text))
            } catch {
                request = .refuse(AppText.commandLineLinkRefused(text, error.reason))
            }
        } else {
            request = .show
        }
    }
}
