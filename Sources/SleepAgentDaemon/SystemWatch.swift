import DFLDBus
import EventLoop
import SleepTimerCore

/// Follows the system on its bus: NetworkManager's StateChanged tells when
/// the network comes back, logind's PrepareForSleep(false) when the machine
/// wakes from a suspend. Where there is no system bus (or no such service),
/// completions are still retried on their own schedule and the wall-clock
/// alarm still fires for what came due during a suspend.
///
/// Neither signal carries anything that could do harm if forged: each only
/// makes the agent look again at what it holds.
final class SystemWatch {
    private var connection: BusConnection?
    private var lastState: UInt32?

    /// NM_STATE_CONNECTED_LOCAL; SITE is 60 and GLOBAL 70. A platform may
    /// sit on the local network, so any connected state counts.
    static let connected: UInt32 = 50

    private typealias NetworkManager = ExternalInterface.NetworkManager
    private typealias Login = ExternalInterface.Login

    func start(loop: MainLoop, log: any LogSink, networkBack: @escaping () -> Void, resumed: @escaping () -> Void) {
        let connection: BusConnection
        do {
            connection = try BusConnection(bus: .system, loop: loop)
            try connection.addMatch(
                "type='signal',sender='\(NetworkManager.name)',path='\(NetworkManager.path)',interface='\(NetworkManager.interface)',member='\(NetworkManager.stateChanged)'")
            try connection.addMatch(
                "type='signal',sender='\(Login.name)',path='\(Login.path)',interface='\(Login.managerInterface)',member='\(Login.prepareForSleep)'")
        } catch {
            log.log(.info, "Not following the network and suspends (no system bus: \(error.message)).")
            return
        }
        connection.addSignalFilter { [weak self] message in
            guard let self, message.kind == .signal else { return false }
            if message.interface == NetworkManager.interface, message.member == NetworkManager.stateChanged,
                let state = (try? message.arguments())?.first?.uint32Value
            {
                let wasConnected = (self.lastState ?? 0) >= Self.connected
                self.lastState = state
                if state >= Self.connected && !wasConnected { networkBack() }
                return true
            }
            if message.interface == Login.managerInterface, message.member == Login.prepareForSleep, message.path == Login.path,
                (try? message.arguments())?.first?.booleanValue == false
            {
                log.log(.info, "The machine woke from a suspend.")
                resumed()
                return true
            }
            return false
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
extension SystemWatch: Sendable {}
