import CDFLLinux
import DFLDBus
import EventLoop
import Glibc
import GLibParsing
import HTTPClient
import SleepTimerCore
import StoreLock

/// The dfl-webview-bridge process: newline-delimited JSON-RPC 2.0 on stdin
/// and stdout, the form in which a desktop wrapper starts it as the
/// WebView's native helper. Each line is one message; each answer and each
/// notification is one line. At the end of stdin it finishes what is in
/// flight and exits.
public final class BridgeProcess {
    let arguments: [String]
    let environment: [String: String]

    public init(arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
    }

    public static let usage = """
        Usage: dfl-webview-bridge [--help]

        The WebView's native helper for the Dreams for Littles Sleep timer:
        newline-delimited JSON-RPC 2.0 on standard input and output. It upserts
        timers on the platform and hands native action tokens (family self-mode,
        Sleep only) to dfl-sleep-agent. The API origins it accepts, a private CA,
        key pins and a proxy come from the [platform] group of sleep-agent.conf.
        """

    public func run() -> Int32 {
        // On the stderr the wrapper keeps, shared with it: named.
        let log = StderrLog(threshold: .info, program: "dfl-webview-bridge")
        NetworkEnvironment.clear(log: log)
        if let status = handleArguments() { return status }
        if dfl_disable_core_dumps() != 0 {
            log.log(.warning, "Could not turn core dumps off.")
        }
        let configuration: Configuration
        do {
            configuration = try Configuration.load(environment: environment, keyFiles: GLibKeyFiles()).configuration
        } catch {
            log.log(.error, "The configuration cannot be used: \(error)")
            return ExitStatus.configuration
        }
        let loop = MainLoop()
        let connection: BusConnection?
        do {
            connection = try BusConnection(bus: .session, loop: loop)
        } catch {
            log.log(.notice, "No session bus (\(error.message)); native Sleep timers are unavailable.")
            connection = nil
        }
        let bridge = makeBridge(configuration, connection: connection, loop: loop, log: log)
        let input = StandardInputServer(server: JSONRPCServer(methods: bridge), loop: loop)
        input.start()
        loop.onSignal(SIGTERM) { loop.quit() }
        loop.onSignal(SIGINT) { loop.quit() }
        loop.run()
        withExtendedLifetime(input) {}
        connection?.close()
        return ExitStatus.success
    }

    /// The exit status when the arguments ask for help or are wrong, else
    /// nil: the bridge takes no arguments.
    private func handleArguments() -> Int32? {
        switch Array(arguments.dropFirst()) {
        case []:
            return nil
        case ["--help"], ["-h"]:
            FileDescriptorOutput.standardOutput.write(Self.usage + "\n")
            return ExitStatus.success
        default:
            FileDescriptorOutput.standardError.write("dfl-webview-bridge: unknown argument\n\(Self.usage)\n")
            return ExitStatus.usage
        }
    }

    private func makeBridge(_ configuration: Configuration, connection: BusConnection?, loop: MainLoop,
                            log: StderrLog) -> SleepTimerBridge {
        let settings = HTTPSettings(platform: configuration, userAgent: "dfl-webview-bridge")
        let bridge = SleepTimerBridge(
            connection: connection, http: HTTPClient(loop: loop, settings: settings), loop: loop,
            allowedOrigins: configuration.allowedOrigins,
            agentStateDirectory: StoreLock.stateDirectory(environment: environment), log: log)
        bridge.notify = { FileDescriptorOutput.standardOutput.write($0 + "\n") }
        bridge.start()
        return bridge
    }
}

/// Every line of standard input answered on standard output, at most
/// `CallGateMachine.Settings.standardLimit` at once (input is not read while lines wait);
/// the loop quits once input has ended and every answer is written.
private final class StandardInputServer {
    let server: JSONRPCServer
    let loop: MainLoop
    let output = FileDescriptorOutput.standardOutput
    let lines = LineReader(limit: JSONRPCServer.maximumMessageBytes)
    var gate = CallGateMachine()
    var watching = false
    var inputEnded = false
    /// Lines are being handed on: an answer given at once (a parse error,
    /// say) lets the loop below go on instead of recursing.
    var pumping = false

    init(server: JSONRPCServer, loop: MainLoop) {
        self.server = server
        self.loop = loop
    }

    func start() {
        lines.onLine = { [unowned self] in gate.arrived($0) }
        // Answered at once, as any message too large: the invalid request.
        lines.onOverlong = { [unowned self] in
            handle([UInt8](repeating: UInt8(ascii: " "), count: JSONRPCServer.maximumMessageBytes + 1), gated: false)
        }
        watchInput()
    }

    private func handle(_ message: [UInt8], gated: Bool) {
        server.handle(message) { [self] answer in
            if let answer { output.write(answer + "\n") }
            if gated {
                gate.answered()
                pump()
            }
        }
    }

    /// Hands waiting lines on while the gate lets it, reads input again
    /// once none wait, and quits after the last answer.
    private func pump() {
        guard !pumping else { return }
        pumping = true
        while case .handOn(let line)? = gate.ready() { handle(line, gated: true) }
        pumping = false
        if inputEnded {
            if gate.isIdle { loop.quit() }
        } else if gate.readsInput && !watching {
            watchInput()
        }
    }

    private func watchInput() {
        watching = true
        loop.watch(descriptor: 0, for: [.readable, .hangUp, .error]) { [self] _ in
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(0, &chunk, chunk.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { return .keep }
            if count > 0 {
                lines.consume(chunk[..<count])
            } else {
                lines.end()
                inputEnded = true
            }
            pump()
            guard !inputEnded && gate.readsInput else {
                // Read again when the gate has drained (pump, after an answer).
                watching = false
                return .remove
            }
            return .keep
        }
    }
}

/// Used on the bridge's loop thread only.
@available(*, unavailable)
extension StandardInputServer: Sendable {}

/// The bridge's parts run on its one loop's thread: the compiler keeps them there.
@available(*, unavailable)
extension BridgeProcess: Sendable {}
