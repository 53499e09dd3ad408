@testable import PanelIndicator
import SleepTimerCore

/// Timers and moments for the indicator's tests.
enum Fixtures {
    /// 2026-11-30 21:00:00 UTC.
    static let start = Instant(millisecondsSince1970: 1_795_986_000_000)
    static let maya = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!
    static let leo = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3302")!
    static let zoe = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3303")!

    static func timer(
        _ id: TimerID = maya, name: String = "Maya", startedMinutesAgo: Int64 = 97, now: Instant = Fixtures.now,
        phase: TimerPhase = .running(canComplete: true)
    ) -> IndicatorTimer {
        IndicatorTimer(
            id: id, babyName: try! BabyName(validating: name),
            startedAt: now.adding(milliseconds: -startedMinutesAgo * Milliseconds.minute), phase: phase)
    }

    /// 97 minutes after `start`.
    static let now = start.adding(milliseconds: 97 * Milliseconds.minute)

    static func minutes(_ count: Int64, after instant: Instant = now) -> Instant {
        instant.adding(milliseconds: count * Milliseconds.minute)
    }

    /// An indicator on a panel whose host shows items.
    static func shown(
        _ timers: [IndicatorTimer] = [timer()], visibility: IndicatorVisibility = .auto
    ) -> PanelItemMachine {
        var indicator = PanelItemMachine(settings: .init(visibility: visibility))
        _ = indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now)
        _ = indicator.timersChanged(timers, now: now)
        return indicator
    }

    static func labels(_ indicator: PanelItemMachine) -> [String] {
        indicator.state.menu.items.map {
            if case .string(let label)? = $0.properties["label"] { return label }
            return "—"
        }
    }

    static func id(of label: String, in indicator: PanelItemMachine) -> Int32? {
        indicator.state.menu.items.first { $0.properties["label"] == .string(label) }?.id
    }
}
