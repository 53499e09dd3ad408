import AgentWorkflows
import SleepTimerCore

/// The desktops' searches (GNOME Shell's overview, KRunner): what they
/// find among the timers held, and what choosing a result does, down the
/// paths the bus's Open and Complete take (the opens' limits per caller,
/// the outbox's exactly once).
extension Agent {
    /// The running Sleeps `terms` find, in the list order.
    public func searchResults(for terms: [String]) -> [SleepSearchRule.Result] {
        search.results(for: terms, among: timers.values, now: clock.now())
    }

    /// A search narrowed by more typing, among the results found before.
    public func searchResults(for terms: [String], within previous: [String]) -> [SleepSearchRule.Result] {
        search.results(for: terms, within: previous, among: timers.values, now: clock.now())
    }

    /// The results asked for by id, those still running, in the order asked.
    public func searchResults(ids: [String]) -> [SleepSearchRule.Result] {
        SleepSearchRule.results(for: ids, among: timers.values, now: clock.now())
    }
}
