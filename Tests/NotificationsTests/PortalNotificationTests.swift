@testable import Notifications
import AgentWorkflows
import DFLDBus
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct PortalNotificationTests {
    let id = Fixtures.timerID(1)

    /// The dictionary's entries by key, each variant's value unwrapped.
    func entries(_ value: BusValue) -> [String: BusValue] {
        var result: [String: BusValue] = [:]
        for element in value.arrayElements ?? [] {
            guard case .dictEntry(.string(let key), .variant(let inner)) = element else {
                Issue.record("not an a{sv} entry: \(element)")
                continue
            }
            result[key] = inner
        }
        return result
    }

    func running(server: NotificationServerTraits = NotificationServer.portal(owner: ":1.4", version: 1).traits,
                 canComplete: Bool = true) -> NotificationContent {
        let rules = TimeZoneRules(fixedOffsetSeconds: 0)
        return NotificationContent.make(
            babyName: try! BabyName(validating: "Maya"), phase: .running(canComplete: canComplete), startedAt: Fixtures.now,
            now: Fixtures.now.adding(milliseconds: 83 * 60_000), rules: rules, timeFormat: .twentyFourHour,
            server: server, liveElapsed: false)
    }

    @Test func aRunningSleepHasTheVersionOneKeysWithTheAppsExportedActionsAndTheTimerAsTarget() {
        let content = running()
        let message = PortalNotification.properties(of: id, content)
        #expect(message.signature == "a{sv}")
        let keys = entries(message)
        #expect(Set(keys.keys) == ["title", "body", "icon", "priority", "default-action", "default-action-target", "buttons"])
        #expect(keys["title"] == .string(content.summary))
        #expect(keys["body"] == .string(content.body))
        #expect(keys["icon"] == .structure([.string("themed"), .variant(.strings(["com.dreamsforlittles.DreamsForLittles"]))]))
        #expect(keys["priority"] == .string("normal"))
        #expect(keys["default-action"] == .string("app.open-timer"))
        #expect(keys["default-action-target"] == .string(id.string))
        let buttons = (keys["buttons"]?.arrayElements ?? []).map(entries)
        #expect(keys["buttons"]?.signature == "aa{sv}")
        #expect(buttons.map { $0["label"] } == [.string(NotificationAction.openButton.label), .string(NotificationAction.complete.label)])
        #expect(buttons.map { $0["action"] } == [.string("app.open-timer"), .string("app.complete-timer")])
        #expect(buttons.map { $0["target"] } == [.string(id.string), .string(id.string)])
    }

    @Test func theNotificationsIdIsTheTimersSoThatAnUpdateReplacesIt() {
        #expect(PortalNotification.id(of: id) == id.string)
    }

    @Test func aSleepThatCannotBeCompletedFromTheDesktopHasOpenAlone() {
        let keys = entries(PortalNotification.properties(of: id, running(canComplete: false)))
        let buttons = (keys["buttons"]?.arrayElements ?? []).map(entries)
        #expect(buttons.map { $0["action"] } == [.string("app.open-timer")])
        #expect(keys["default-action"] == .string("app.open-timer"))
    }

    @Test func aSavedSleepGoesWithLowPriorityAndNoActions() {
        var content = NotificationContent(summary: "Maya's sleep", body: "Sleep saved · 1 h 23 min", actions: [], persistent: false)
        content.urgency = .low
        let keys = entries(PortalNotification.properties(of: id, content))
        #expect(keys["priority"] == .string("low"))
        #expect(keys["buttons"] == nil)
        #expect(keys["default-action"] == nil)
        #expect(keys["default-action-target"] == nil)
    }

    @Test func eachActionIsTheAppActionThatDoesTheSame() {
        #expect(PortalNotification.exportedAction(.open) == .openTimer)
        #expect(PortalNotification.exportedAction(.openButton) == .openTimer)
        #expect(PortalNotification.exportedAction(.complete) == .completeTimer)
    }
}
