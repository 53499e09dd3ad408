import CDFLLinux
import DFLDBus
import EventLoop
import Glibc
import HTTPClient
import SleepTimerCore

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
        Sleep only) to dfl-sleep-agent. The API origins it accepts, a private CA
        and key pins come from the [platform] group of sleep-agent.conf.
        """

    public func run() -> Int32 {
        let output = FileDescriptorOutput.standardOutput
        let log = BridgeLog()
        switch Array(arguments.dropFirst()) {
        case []: break
        case ["--help"], ["-h"]:
            output.write(Self.usage + "\n")
            return 0
        default:
            FileDescriptorOutput.standardError.write("dfl-webview-bridge: unknown argument\n\(Self.usage)\n")
            return 64
        }
        if dfl_disable_core_dumps() != 0 {
            log.log(.warning, "Could not turn core dumps off.")
        }
        let configuration: Configuration
        do {
            configuration = try Configuration.load(environment: environment).configuration
        } catch {
            log.log(.error, "The configuration cannot be used: \(error)")
            return 78
        }
        let loop = MainLoop()
        let connection: BusConnection?
        do {
            connection = try BusConnection(bus: .session, loop: loop)
        } catch {
            log.log(.notice, "No session bus (\(error.message)); native Sleep timers are unavailable.")
            connection = nil
        }
        var settings = HTTPSettings()
        settings.pinnedPublicKeys = configuration.pinnedPublicKeys
        settings.certificateAuthorities = configuration.certificateAuthorities
        settings.userAgent = "dfl-webview-bridge"
        let bridge = SleepTimerBridge(
            connection: connection, http: HTTPClient(loop: loop, settings: settings),
            allowedOrigins: configuration.allowedOrigins, log: log)
        bridge.notify = { output.write($0 + "\n") }
        bridge.start()
        let server = JSONRPCServer(methods: bridge)

        var pending = 0
        var inputEnded = false
        var buffer: [UInt8] = []
        /// Bytes of an overlong line being skipped up to its newline.
        var skipping = false
        func finishIfDone() {
            if inputEnded && pending == 0 { loop.quit() }
        }
        func handle(_ line: ArraySlice<UInt8>) {
            var message = Array(line)
            if message.last == UInt8(ascii: "\r") { message.removeLast() }
            guard message.contains(where: { ![0x20, 0x09].contains($0) }) else { return }
            pending += 1
            server.handle(message) { answer in
                if let answer { output.write(answer + "\n") }
                pending -= 1
                finishIfDone()
            }
        }
        loop.watch(descriptor: 0, for: [.readable, .hangUp, .error]) { _ in
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(0, &chunk, chunk.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { return .keep }
            guard count > 0 else {
                if !skipping && !buffer.isEmpty { handle(buffer[...]) }
                buffer = []
                inputEnded = true
                finishIfDone()
                return .remove
            }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                if skipping {
                    skipping = false
                } else {
                    buffer += chunk[start..<index]
                    handle(buffer[...])
                }
                buffer = []
                start = index + 1
            }
            if !skipping { buffer += chunk[start..<count] }
            if buffer.count > JSONRPCServer.maximumMessageBytes {
                // Answer once, then drop the rest of this line.
                buffer = []
                skipping = true
                pending += 1
                server.handle([UInt8](repeating: UInt8(ascii: " "), count: JSONRPCServer.maximumMessageBytes + 1)) { answer in
                    if let answer { output.write(answer + "\n") }
                    pending -= 1
                    finishIfDone()
                }
            }
            return .keep
        }
        loop.onSignal(SIGTERM) { loop.quit() }
        loop.onSignal(SIGINT) { loop.quit() }
        loop.run()
        connection?.close()
        return 0
    }
}

/// Log lines on stderr, which the wrapper keeps; never a token.
struct BridgeLog: LogSink {
    func log(_ priority: LogPriority, _ message: String) {
        guard priority <= .info else { return }
        FileDescriptorOutput.standardError.write(JournalLine.format(priority, "dfl-webview-bridge: " + message) + "\n")
    }
}

/// The bridge's parts run on its one loop's thread: the compiler keeps them there.
@available(*, unavailable)
extension BridgeProcess: Sendable {}
