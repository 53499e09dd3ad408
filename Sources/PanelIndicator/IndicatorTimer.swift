import SleepTimerCore

/// A timer as the indicator shows it: display data and where its
/// completion stands, nothing else (no token, no scope).
public struct IndicatorTimer: Sendable, Equatable {
    public let id: TimerID
    public let babyName: BabyName
    public let startedAt: Instant
    public let phase: TimerPhase

    public init(id: TimerID, babyName: BabyName, startedAt: Instant, phase: TimerPhase) {
        self.id = id
        self.babyName = babyName
        self.startedAt = startedAt
        self.phase = phase
    }

    var isRunning: Bool { phase.isRunning }

    /// Whether the app can still be opened at this timer (a saved one has
    /// left the desktop).
    var canOpen: Bool {
        if case .saved = phase { return false }
        return true
    }

    /// The tooltip line: "Maya asleep · 1 h 37 min".
    func line(at now: Instant) -> String {
        let name = babyName.text
        switch phase {
        case .running:
            return IndicatorText.asleepFor(name: name, elapsed: DisplayText.elapsed(from: startedAt, to: now))
        default:
            return headline
        }
    }

    /// The line without anything that changes by the minute: "Maya asleep".
    var headline: String {
        let name = babyName.text
        switch phase {
        case .running: return IndicatorText.asleep(name: name)
        case .saving(waitingForNetwork: false): return IndicatorText.savingSleep(name: name)
        case .saving(waitingForNetwork: true): return IndicatorText.savingWhenOnline(name: name)
        case .failed: return IndicatorText.couldNotSave(name: name)
        case .saved(let minutes):
            return IndicatorText.sleepSaved(name: name, duration: DisplayText.duration(minutes: minutes))
        }
    }
}
