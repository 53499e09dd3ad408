import SleepTimerCore

/// When the agent tells the background portal its status line (GNOME
/// Shell's Background Apps, for a sandboxed app only): the line is made
/// from the sleeping babies alone, with no elapsed time, and sent only
/// when it differs from the one sent last, so it changes when a timer
/// starts, ends or changes (a name, a start, the clock's format) and never
/// on the minute. With no baby asleep the line is cleared (an empty
/// message, which GNOME shows as none), once.
public struct BackgroundStatusMachine: Sendable {
    public enum State: Sendable, Equatable {
        /// Nothing sent yet: the portal knows no line of this agent, so an
        /// empty one is not sent.
        case nothingSent
        /// The line sent last; empty once it was cleared.
        case sent(String)
    }

    private(set) var state: State = .nothingSent

    public init() {}

    /// Only a sandboxed app has a Background Apps entry to speak in; on the
    /// host the portal refuses the call.
    public static func applies(at place: RunningPlace) -> Bool { place.isSandboxed }

    /// The babies asleep: every timer with no completion recorded (an
    /// expired token does not wake a baby), the earliest asleep first.
    public static func sleepers(
        _ timers: [StoredTimer], timeZones: any TimeZoneResolving, timeFormat: TimeFormat
    ) -> [BackgroundStatusText.Sleeper] {
        timers.filter { $0.state == .running }
            .sorted(by: TimerOrderRule.precedes)
            .map { stored in
                let since = timeZones.rules(for: stored.timer.timeZone).map {
                    DisplayText.timeOfDay(stored.timer.startedAt, rules: $0, timeFormat: timeFormat)
                }
                return BackgroundStatusText.Sleeper(name: stored.timer.babyName.text, since: since ?? "?")
            }
    }

    public enum TimersChangedAction: Sendable, Equatable {
        /// Send this line to the portal (empty: clear it).
        case send(String)
    }

    /// The agent's timers, or the clock's format they are shown in, may
    /// have changed (at the agent's start: the timers it holds). Nil when
    /// the line sent stands.
    public mutating func timersChanged(
        _ timers: [StoredTimer], timeZones: any TimeZoneResolving, timeFormat: TimeFormat
    ) -> TimersChangedAction? {
        let line = BackgroundStatusText.line(Self.sleepers(timers, timeZones: timeZones, timeFormat: timeFormat))
        let standing: String
        switch state {
        case .nothingSent: standing = ""
        case .sent(let sent): standing = sent
        }
        if line == standing { return nil }
        state = .sent(line)
        return .send(line)
    }
}
