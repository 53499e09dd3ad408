import DFLDBus
import EventLoop
import SleepTimerCore

/// Tells when the network comes back, from NetworkManager's StateChanged
/// on the system bus. Where there is no system bus or no NetworkManager,
/// completions are still retried on their own schedule.
final class NetworkWatch {
    private var connection: BusConnection?
    private var lastState: UInt32?

    /// NM_STATE_CONNECTED_LOCAL; SITE is 60 and GLOBAL 70. A platform may
    /// sit on the local network, so any connected state counts.
    static let connected: UInt32 = 50

    /// NetworkManager's object and the one signal followed.
    enum NetworkManager {
        static let name = "org.freedesktop.NetworkManager"
        static let path = "/org/freedesktop/NetworkManager"
        static let stateChanged = "StateChanged"
    }

    func start(loop: MainLoop, log: any LogSink, onBack: @escaping () -> Void) {
        let connection: BusConnection
        do {
            connection = try BusConnection(bus: .system, loop: loop)
            try connection.addMatch(
                "type='signal',sender='\(NetworkManager.name)',path='\(NetworkManager.path)',interface='\(NetworkManager.name)',member='\(NetworkManager.stateChanged)'")
        } catch {
            log.log(.info, "Not following network changes (no system bus: \(error.message)).")
            return
        }
        connection.addFilter { [weak self] message in
            guard let self, message.kind == .signal, message.interface == NetworkManager.name,
                message.member == NetworkManager.stateChanged, let state = (try? message.arguments())?.first?.uint32Value
            else { return false }
            let wasConnected = (self.lastState ?? 0) >= Self.connected
            self.lastState = state
            if state >= Self.connected && !wasConnected { onBack() }
            return true
        }
        self.connection = connection
    }

    func stop() {
        connection?.close()
        connection = nil
    }
}

/// Watches the bus on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension NetworkWatch: Sendable {}
