import DFLDBus
import EventLoop
import SleepAgent
import SleepTimerCore

/// Opens a deep link in the app, carrying out the ways LinkRouteRule
/// decides (the app's ExternalOpener takes the desktop's ways from the same
/// rule): the configured url-opener; the app itself, through
/// org.freedesktop.Application on its id (Open with a timer's link, Activate
/// for the start page), which D-Bus activation starts, outside the agent's
/// sandbox, when it is not running, with the click's activation token as
/// platform data; or the desktop, the OpenURI portal and `xdg-open`. Every
/// program is started with an argument vector, never a shell, and the URL
/// only ever comes from the deep-link builder.
public final class DeepLinkOpener {
    var configuredProgram: String?
    var webOrigin: APIOrigin
    let connection: BusConnection
    let environment: [String: String]
    let log: any LogSink

    private typealias Portal = ExternalInterface.Portal

    public init(configuration: Configuration, connection: BusConnection, environment: [String: String], log: any LogSink) {
        configuredProgram = configuration.urlOpener
        webOrigin = configuration.webOrigin
        self.connection = connection
        self.environment = environment
        self.log = log
    }

    public func open(_ link: DeepLink, activationToken: String?) {
        switch LinkRouteRule.firstWay(for: link, configuredProgram: configuredProgram) {
        case .program(let program, let link): spawn(program, link, activationToken: activationToken)
        case .app(let link): openInApp(link, activationToken: activationToken)
        case .desktop(let link): openWithDesktop(link, activationToken: activationToken)
        }
    }

    /// Both names of the token are given: GTK reads activation-token on
    /// Wayland and desktop-startup-id on X11.
    private func openInApp(_ link: DeepLink, activationToken: String?) {
        var platformData: [(String, BusValue)] = []
        if let activationToken, !activationToken.isEmpty {
            platformData = [("activation-token", .string(activationToken)), ("desktop-startup-id", .string(activationToken))]
        }
        var call = Message.methodCall(
            destination: AppService.name, path: AppService.path, interface: AppService.interface, member: link.isAppHome ? AppService.activate : AppService.open)
        call = link.isAppHome ? call.append(.vardict(platformData)) : call.append(.strings([link.url]), .vardict(platformData))
        connection.call(call) { [self] result in
            switch result {
            case .success:
                log.log(.info, "Opened the app at \(link.url) through \(AppService.name).")
            case .failure(let error):
                appFailed(link, error: error, activationToken: activationToken)
            }
        }
    }

    private func appFailed(_ link: DeepLink, error: BusError, activationToken: String?) {
        switch LinkRouteRule.afterAppFailed(link, failure: .init(error), webOrigin: webOrigin) {
        case .refused(let message):
            log.log(.notice, "The bus refused to start the app (\(message)); nothing else is started for this open.")
        case .desktop(let link, let reason):
            switch reason {
            case .appMissing: log.log(.notice, "The app is not installed; opening the web app in the default browser.")
            case .appFailed(let message): log.log(.notice, "The app could not open the link (\(message)); asking the desktop.")
            }
            openWithDesktop(link, activationToken: activationToken)
        }
    }

    private func openWithDesktop(_ link: DeepLink, activationToken: String?) {
        let question = Message.methodCall(
            destination: StandardInterface.Bus.name, path: StandardInterface.Bus.path, interface: StandardInterface.Bus.name,
            member: StandardInterface.Bus.nameHasOwner
        ).append(.string(Portal.name))
        connection.call(question) { [self] result in
            let portalOnBus: Bool
            if case .success(let reply) = result, (try? reply.arguments())?.first?.booleanValue == true {
                portalOnBus = true
            } else {
                portalOnBus = false
            }
            tryDesktop(LinkRouteRule.desktopWays(portalOnBus: portalOnBus)[...], link, activationToken: activationToken)
        }
    }

    /// The desktop's ways in the rule's order, the next one only when one fails.
    private func tryDesktop(_ ways: ArraySlice<LinkRouteRule.DesktopWay>, _ link: DeepLink, activationToken: String?) {
        guard let way = ways.first else { return }
        switch way {
        case .portal:
            openThroughPortal(link, activationToken: activationToken) { [self] in
                tryDesktop(ways.dropFirst(), link, activationToken: activationToken)
            }
        case .xdgOpen:
            if !spawn(LinkRouteRule.desktopOpener, link, activationToken: activationToken) {
                tryDesktop(ways.dropFirst(), link, activationToken: activationToken)
            }
        }
    }

    private func openThroughPortal(_ link: DeepLink, activationToken: String?, failed: @escaping () -> Void) {
        var options: [(String, BusValue)] = []
        if let activationToken, !activationToken.isEmpty { options.append(("activation_token", .string(activationToken))) }
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.openURIInterface, member: Portal.openURI
        ).append(.string(""), .string(link.url), .vardict(options))
        connection.call(call) { [self] result in
            switch result {
            case .success:
                log.log(.info, "Opened the app at \(link.url) through the desktop portal.")
            case .failure(let error):
                log.log(.notice, "The desktop portal could not open the link (\(error.message)); trying the next way.")
                failed()
            }
        }
    }

    /// False when the program could not be started.
    @discardableResult
    private func spawn(_ program: String, _ link: DeepLink, activationToken: String?) -> Bool {
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
            return true
        } catch {
            log.log(.error, "Could not open the app with \(program): \(error)")
            return false
        }
    }
}

extension DeepLinkOpener: LinkOpener {
    public func reconfigure(_ configuration: Configuration) {
        configuredProgram = configuration.urlOpener
        webOrigin = configuration.webOrigin
    }
}

/// Asks the bus and spawns on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension DeepLinkOpener: Sendable {}
