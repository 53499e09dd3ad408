import AgentWorkflows
import DFLTestSupport
import SleepTimerCore

/// Timers, servers and outbox entries for the workflows' tests, built on
/// the shared fixtures.
enum WorkflowFixtures {
    static let now = Fixtures.now
    static let scope = Fixtures.scope

    static func id(_ n: Int) -> TimerID { Fixtures.timerID(n) }

    /// A timer that started 83 minutes and 20 seconds before `now`, in UTC.
    static func timer(
        _ n: Int = 1, name: String = "Maya", startedAt: Instant = now.adding(milliseconds: -(83 * 60 + 20) * 1000),
        revision: Int64 = 3, token: Bool = true, tokenValue: String = Fixtures.canary,
        expiresAt: Instant = now.adding(milliseconds: 12 * Milliseconds.hour), completion: CompletionState? = nil,
        attempts: Int = 0
    ) -> StoredTimer {
        StoredTimer(
            timer: MirroredTimer(
                id: id(n), scope: scope, babyID: Fixtures.baby,
                babyName: try! BabyName(validating: name), startedAt: startedAt, timeZone: TimeZoneName("Etc/UTC")!,
                revision: revision, token: token ? ActionToken(unvalidated: tokenValue) : nil,
                tokenExpiresAt: expiresAt),
            completionState: completion, completionAttempts: attempts)
    }

    /// xfce4-notifyd: buttons, in-place updates.
    static let xfce = NotificationServer(
        owner: ":1.7", displayName: "Xfce Notify Daemon 0.7.3",
        traits: NotificationServerTraits(capabilities: ["actions", "body", "persistence"], serverName: "Xfce Notify Daemon"))
    /// GNOME Shell: alerts again on every update.
    static let gnome = NotificationServer(
        owner: ":1.9", displayName: "gnome-shell 43.9",
        traits: NotificationServerTraits(capabilities: ["actions", "body", "body-markup"], serverName: "gnome-shell"))
    /// GNOME Shell 48: pops a replaced notification up again unless its urgency is low.
    static let gnome48 = NotificationServer(
        owner: ":1.10", displayName: "gnome-shell 48.7",
        traits: NotificationServerTraits(
            capabilities: ["actions", "body", "body-markup", "persistence"], serverName: "gnome-shell", version: "48.7"))
    /// xfce4-notifyd during Do Not Disturb, as ServerDiscoveryMachine reports it: the same owner, no actions.
    static var xfceDoNotDisturb: NotificationServer {
        var traits = xfce.traits
        traits.actions = false
        return NotificationServer(owner: xfce.owner, displayName: xfce.displayName, traits: traits)
    }
    /// The notification portal, version 1.
    static let portal = NotificationServer.portal(owner: ":1.12", version: 1)
    /// A server that draws no buttons.
    static let plain = NotificationServer(
        owner: ":1.11", displayName: "plain 1", traits: NotificationServerTraits(capabilities: ["body"], serverName: "plain"))

    /// A completion request as the agent records it, with `token`.
    static func requestBody(token: String = Fixtures.canary, completedAt: Instant = now) -> CompletionRequestBody {
        NativeCompletion.requestBody(token: ActionToken(unvalidated: token), completedAt: completedAt)
    }

    static func record(
        _ n: Int = 1, attempts: Int = 0, nextAttemptAt: Instant = now,
        tokenExpiresAt: Instant = now.adding(milliseconds: 12 * Milliseconds.hour), body: Bool = true
    ) -> CompletionRecord {
        CompletionRecord(
            timerID: id(n), scope: scope, completedAt: now, requestBody: body ? requestBody() : nil,
            tokenExpiresAt: tokenExpiresAt, attempts: attempts, nextAttemptAt: nextAttemptAt, lastError: nil, state: .pending)
    }
}

/// No zone is known.
struct NoZones: TimeZoneResolving {
    func rules(for name: TimeZoneName) -> TimeZoneRules? { nil }
}

extension Instant {
    func plus(seconds: Int64) -> Instant { adding(milliseconds: seconds * 1000) }
}
