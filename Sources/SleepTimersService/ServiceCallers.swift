import DFLDBus
import SleepAgent
import SleepTimerCore

/// What the agent's two services (its timers' interface and the desktops'
/// searches) do alike with a call's caller: name it as a person counts
/// callers, so that the agent's limits hold per process, and count and log
/// a refusal against it.
struct ServiceCallers {
    let agent: Agent
    let log: any LogSink
    /// nil: each connection is its own caller (a bus of one client, in tests).
    let callers: CallerProcesses?

    /// Runs `body` with the caller of `message`.
    func identify(_ message: Message, _ body: @escaping (String) -> Void) {
        guard let callers else { return body(message.sender ?? "?") }
        callers.identify(message.sender, body)
    }

    /// A refused call: a storage failure logged as the agent's own error,
    /// anything else noted against its caller (whose refusals are logged
    /// within a budget); the call answered with the error.
    func refuse(_ message: Message, _ member: String, _ error: ServiceError, on object: BusObject) {
        if error.code == .storageFailed {
            log.log(.error, "Refused \(member) from \(message.sender ?? "?"): \(error.message)")
        } else {
            identify(message) { [agent] caller in agent.noteRefusal(of: member, by: caller, error.message) }
        }
        object.fail(message, error.name, error.message)
    }
}
