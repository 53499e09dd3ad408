import EventLoop
import SleepTimerCore

/// Opens a deep link in the app: through the program configured as
/// url-opener, or `xdg-open`, started with an argument vector and never a
/// shell. The URL only ever comes from the deep-link builder.
public final class DeepLinkOpener {
    let program: String
    let environment: [String: String]
    let log: any LogSink

    public init(configuration: Configuration, environment: [String: String], log: any LogSink) {
        program = configuration.urlOpener ?? "xdg-open"
        self.environment = environment
        self.log = log
    }

    /// `activationToken` lets the opened app take focus (xdg-activation on
    /// Wayland, the startup id on X11).
    public func open(_ link: DeepLink, activationToken: String?) {
        var environment = self.environment
        environment.removeValue(forKey: "XDG_ACTIVATION_TOKEN")
        environment.removeValue(forKey: "DESKTOP_STARTUP_ID")
        if let activationToken, !activationToken.isEmpty {
            environment["XDG_ACTIVATION_TOKEN"] = activationToken
            environment["DESKTOP_STARTUP_ID"] = activationToken
        }
        do {
            try MainLoop.spawn([program, link.url], environment: environment)
            log.log(.info, "Opened the app at \(link.url).")
        } catch {
            log.log(.error, "Could not open the app with \(program): \(error)")
        }
    }
}
