import DFLDBus
import EventLoop
import SleepTimerCore

/// Opens a deep link in the app. The configured url-opener wins; otherwise
/// the desktop's OpenURI portal when org.freedesktop.portal.Desktop is on
/// the bus, else `xdg-open`, started with an argument vector, never a shell.
/// The URL only ever comes from the deep-link builder; the activation token
/// of the click (xdg-activation, or the X11 startup id) is passed on so that
/// the app may take the focus.
public final class DeepLinkOpener {
    var configuredProgram: String?
    let connection: BusConnection
    let environment: [String: String]
    let log: any LogSink

    /// The desktop portal's OpenURI (xdg-desktop-portal).
    enum Portal {
        static let name = "org.freedesktop.portal.Desktop"
        static let path = "/org/freedesktop/portal/desktop"
        static let interface = "org.freedesktop.portal.OpenURI"
        static let openURI = "OpenURI"
    }

    public init(configuration: Configuration, connection: BusConnection, environment: [String: String], log: any LogSink) {
        configuredProgram = configuration.urlOpener
        self.connection = connection
        self.environment = environment
        self.log = log
    }

    public func open(_ link: DeepLink, activationToken: String?) {
        if let configuredProgram {
            spawn(configuredProgram, link, activationToken: activationToken)
            return
        }
        let question = Message.methodCall(
            destination: StandardInterface.Bus.name, path: StandardInterface.Bus.path, interface: StandardInterface.Bus.name,
            member: StandardInterface.Bus.nameHasOwner
        ).append(.string(Portal.name))
        connection.call(question) { [self] result in
            guard case .success(let reply) = result, (try? reply.arguments())?.first?.booleanValue == true else {
                spawn("xdg-open", link, activationToken: activationToken)
                return
            }
            openThroughPortal(link, activationToken: activationToken)
        }
    }

    private func openThroughPortal(_ link: DeepLink, activationToken: String?) {
        var options: [(String, BusValue)] = []
        if let activationToken, !activationToken.isEmpty { options.append(("activation_token", .string(activationToken))) }
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.interface, member: Portal.openURI
        ).append(.string(""), .string(link.url), .vardict(options))
        connection.call(call) { [self] result in
            switch result {
            case .success:
                log.log(.info, "Opened the app at \(link.url) through the desktop portal.")
            case .failure(let error):
                log.log(.notice, "The desktop portal could not open the link (\(error.message)); trying xdg-open.")
                spawn("xdg-open", link, activationToken: activationToken)
            }
        }
    }

    private func spawn(_ program: String, _ link: DeepLink, activationToken: String?) {
        var environment = self.environment
        environment.removeValue(forKey: "XDG_ACTIVATION_TOKEN")
        environment.removeValue(forKey: "DESKTOP_STARTUP_ID")
        if let activationToken, !activationToken.isEmpty {
            environment["XDG_ACTIVATION_TOKEN"] = activationToken
            environment["DESKTOP_STARTUP_ID"] = activationToken
        }
        do {
            try MainLoop.spawn([program, link.url], environment: environment)
            log.log(.info, "Opened the app at \(link.url) with \(program).")
        } catch {
            log.log(.error, "Could not open the app with \(program): \(error)")
        }
    }
}

/// Asks the bus and spawns on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension DeepLinkOpener: Sendable {}
