import SleepTimerCore
import SleepTimersAPI

/// The panel indicator's decisions, as values: from the timers, the panel
/// (a StatusNotifierWatcher and whether a host shows items) and the
/// `[indicator] show` setting, it says whether the item is published, what
/// its properties and menu are, which signals tell the host of a change,
/// and what a click asks the agent to do. The shell performs the actions on
/// the bus; nothing here does I/O, reads a clock or owns a timer.
public struct PanelIndicator: Sendable {
    public static let itemID = AppIdentity.agentID
    public static let category = "ApplicationStatus"
    /// The app's icon; hosts that prefer symbolic icons take the
    /// `-symbolic` variant of the same name from the icon theme.
    public static let iconName = AppIdentity.appID
    /// Longer activation tokens are not kept (real ones are tens of bytes).
    public static let maximumActivationTokenLength = 4096

    public enum Status: String, Sendable {
        case active = "Active"
        case passive = "Passive"
    }

    /// The panel side of the bus.
    public enum Watcher: Sendable, Equatable {
        /// No org.kde.StatusNotifierWatcher: nothing can show the item.
        case absent
        /// A watcher; `hostRegistered` while a host (a panel) shows items.
        case present(hostRegistered: Bool)
    }

    public enum Signal: Sendable, Equatable {
        case newStatus(Status)
        case newTitle
        case newToolTip
        /// com.canonical.dbusmenu LayoutUpdated(revision, parent).
        case layoutUpdated(revision: UInt32, parent: Int32)
        /// com.canonical.dbusmenu ItemsPropertiesUpdated: the changed
        /// properties of items, and the names of those gone back to their
        /// defaults.
        case itemsPropertiesUpdated(updated: [MenuItem], removed: [RemovedProperties])
    }

    /// Properties of an item that went back to their defaults.
    public struct RemovedProperties: Sendable, Equatable {
        public let id: Int32
        public let names: [String]

        public init(id: Int32, names: [String]) {
            self.id = id
            self.names = names
        }
    }

    public enum Action: Sendable, Equatable {
        /// Own the item's bus name: the item exists.
        case publish
        /// Register the item with the watcher (again, for a new watcher).
        case register
        /// Release the item's bus name: the item goes from every host.
        case withdraw
        case emit(Signal)
        /// The agent's Complete, as the notification's button does it.
        case complete(TimerID)
        case open(TimerID, activationToken: String?)
        case openApp(activationToken: String?)
        /// The app's `quit` action: the running app ends, window or not.
        case quitApp
    }

    /// The tooltip: (title, description), the description in the markup
    /// the specification allows, so names are escaped.
    public struct ToolTip: Sendable, Equatable {
        public let title: String
        public let description: String

        public init(title: String, description: String) {
            self.title = title
            self.description = description
        }
    }

    public let visibility: IndicatorVisibility
    public private(set) var timers: [IndicatorTimer] = []
    public private(set) var watcher: Watcher = .absent
    public private(set) var isPublished = false
    public private(set) var menu = Menu()
    private var ids = MenuIDs()
    /// What the host was last told, to say only what changed.
    private var told: Appearance?
    /// com.dreamsforlittles.App is on the bus.
    public private(set) var appRunning = false
    /// From the host (ProvideXdgActivationToken), for the next opening.
    private var activationToken: String?

    public init(visibility: IndicatorVisibility) {
        self.visibility = visibility
        _ = rebuildMenu()
    }

    // MARK: Events

    /// What the shell does at its start.
    public enum StartedAction: Sendable, Equatable {
        /// Export the item's and the menu's objects and follow the watcher,
        /// then carry these out (with `show=always` the item is published
        /// at once, watcher or not).
        case export(then: [Action])
        /// `show=never`: the item can never be shown, so nothing of it goes
        /// on the bus, no watcher is followed, and every later event
        /// settles to nothing.
        case stayOffTheBus
    }

    /// The shell starts: the one place `show=never` keeps the item off the
    /// bus (`shouldPublish` keeps it unpublished after that).
    public mutating func started(now: Instant) -> StartedAction {
        guard visibility != .never else { return .stayOffTheBus }
        return .export(then: settle(now: now))
    }

    /// The agent's timers, all of them, as they are now.
    public mutating func timersChanged(_ timers: [IndicatorTimer], now: Instant) -> [Action] {
        self.timers = timers.sorted {
            TimerOrderRule.precedes(startedAt: $0.startedAt, id: $0.id, before: $1.startedAt, $1.id)
        }
        return settle(now: now)
    }

    /// A minute boundary passed: the elapsed times move on.
    public mutating func minuteBoundary(now: Instant) -> [Action] {
        settle(now: now)
    }

    /// The app came onto the bus or left it: while it runs (perhaps with
    /// its window closed, to renew the timers' tokens), the menu can quit it.
    public mutating func appRunningChanged(_ running: Bool, now: Instant) -> [Action] {
        appRunning = running
        return settle(now: now)
    }

    /// A watcher appeared, changed owner (restarted) or went away; or its
    /// host registered or left.
    public mutating func watcherChanged(_ watcher: Watcher, newInstance: Bool, now: Instant) -> [Action] {
        self.watcher = watcher
        let wasPublished = isPublished
        var actions = settle(now: now)
        // A restarted watcher knows nothing of the item: register again.
        if newInstance, wasPublished, isPublished, watcher != .absent { actions.insert(.register, at: 0) }
        return actions
    }

    public mutating func provideActivationToken(_ token: String) {
        guard !token.isEmpty, token.utf8.count <= Self.maximumActivationTokenLength else { return }
        activationToken = token
    }

    /// A primary click on the item: the app, at the most recent timer
    /// that can still be opened.
    public mutating func activate() -> [Action] {
        let token = takeActivationToken()
        guard let latest = timers.last(where: \.canOpen) else { return [.openApp(activationToken: token)] }
        return [.open(latest.id, activationToken: token)]
    }

    public enum EventOutcome: Sendable, Equatable {
        case handled([Action])
        /// No item has this id (any more): nothing is done.
        case unknownItem
    }

    /// A dbusmenu event ("clicked", "opened", "closed", "hovered") on an
    /// item. Only a click does anything, and only on an item of the
    /// current menu.
    public mutating func menuEvent(id: Int32, event: String) -> EventOutcome {
        guard menu.item(id) != nil else { return .unknownItem }
        guard event == "clicked" else { return .handled([]) }
        if id == MenuIDs.openApp { return .handled([.openApp(activationToken: takeActivationToken())]) }
        if id == MenuIDs.quitApp { return .handled([.quitApp]) }
        guard let key = ids.meaning[id] else { return .handled([]) }
        switch key.role {
        case .complete: return .handled([.complete(key.timer)])
        case .open: return .handled([.open(key.timer, activationToken: takeActivationToken())])
        case .state: return .handled([])
        }
    }

    // MARK: Reading

    /// Whoever owns the minute tick refreshes the indicator only while
    /// this holds: a host shows the item and an elapsed time is on it.
    public var wantsMinuteRefreshes: Bool {
        isPublished && watcher == .present(hostRegistered: true) && timers.contains(where: \.isRunning)
    }

    /// The next moment an elapsed time shown changes, while refreshes are wanted.
    public func nextMinuteBoundary(after now: Instant) -> Instant? {
        guard wantsMinuteRefreshes else { return nil }
        return timers.filter(\.isRunning).map { TimerPhase.nextMinuteBoundary(after: now, startedAt: $0.startedAt) }.min()
    }

    public var status: Status { timers.isEmpty ? .passive : .active }

    /// The item's title: what is going on, without the minutes.
    public var title: String {
        timers.isEmpty ? IndicatorText.appName : timers.map(\.headline).joined(separator: IndicatorText.titleSeparator)
    }

    /// "Maya asleep · 1 h 37 min", one line per timer, as of `now`.
    public func toolTip(at now: Instant) -> ToolTip {
        ToolTip(
            title: IndicatorText.appName,
            description: timers.map { DisplayText.escapeMarkup($0.line(at: now)) }.joined(separator: "\n"))
    }

    /// GetLayout: the item `parent` with its children down to `depth`
    /// levels (-1: all); nil for an id not in the menu.
    public func layout(parent: Int32, depth: Int32, propertyNames: [String]) -> MenuNode? {
        guard let item = menu.item(parent) else { return nil }
        let children = parent == MenuIDs.root && depth != 0
            ? menu.items.map { MenuNode(id: $0.id, properties: $0.properties(named: propertyNames), children: []) }
            : []
        return MenuNode(id: parent, properties: item.properties(named: propertyNames), children: children)
    }

    /// AboutToShow: whether the host must fetch the layout before showing
    /// the menu. Never: every change is signalled as it happens. nil for an
    /// id not in the menu.
    public func aboutToShow(_ id: Int32) -> Bool? {
        menu.item(id) == nil ? nil : false
    }

    /// GetGroupProperties: the items of `ids` that exist (every item when
    /// `ids` is empty), with the properties asked for.
    public func groupProperties(ids: [Int32], propertyNames: [String]) -> [MenuItem] {
        let all = [menu.item(MenuIDs.root)!] + menu.items
        let chosen = ids.isEmpty ? all : ids.compactMap { menu.item($0) }
        return chosen.map { MenuItem(id: $0.id, properties: $0.properties(named: propertyNames)) }
    }

    // MARK: Settling

    private struct Appearance: Equatable {
        let status: Status
        let title: String
        let toolTip: ToolTip
    }

    private var shouldPublish: Bool {
        switch visibility {
        case .never: return false
        case .always: return true
        case .auto: return watcher != .absent && !timers.isEmpty
        }
    }

    /// Brings the published state, the menu and what the host was told in
    /// line with the inputs; returns what the shell must do for that.
    private mutating func settle(now: Instant) -> [Action] {
        // An item that is not published and is not about to be shows
        // nothing: its menu and texts are made when it is published, not
        // at every change (without a panel, every change would pay for them).
        guard shouldPublish || isPublished else { return [] }
        let menuChange = rebuildMenu()
        let appearance = Appearance(status: status, title: title, toolTip: toolTip(at: now))
        guard shouldPublish == isPublished else {
            isPublished = shouldPublish
            told = isPublished ? appearance : nil
            // A host reads everything of an item that registers.
            return isPublished ? (watcher == .absent ? [.publish] : [.publish, .register]) : [.withdraw]
        }
        guard isPublished else { return [] }
        var signals: [Signal] = []
        if let told {
            if appearance.status != told.status { signals.append(.newStatus(appearance.status)) }
            if appearance.title != told.title { signals.append(.newTitle) }
            if appearance.toolTip != told.toolTip { signals.append(.newToolTip) }
        }
        told = appearance
        if let menuChange { signals.append(menuChange) }
        return signals.map(Action.emit)
    }

    /// The menu for the current timers; returns the signal that tells a
    /// host of the change, if it changed.
    private mutating func rebuildMenu() -> Signal? {
        var keys: [MenuKey] = []
        var labels: [MenuKey: String] = [:]
        for timer in timers {
            let name = timer.babyName.text
            func add(_ role: MenuRole, _ label: String) {
                let key = MenuKey(timer: timer.id, role: role)
                keys.append(key)
                labels[key] = label
            }
            switch timer.phase {
            case .running(let canComplete):
                if canComplete { add(.complete, IndicatorText.completeSleep(name: name)) }
            case .saving, .failed, .saved:
                add(.state, timer.headline)
            }
            if timer.canOpen { add(.open, IndicatorText.openSleep(name: name)) }
        }
        var items = zip(ids.assign(keys), keys).map { id, key in
            var properties: [String: MenuValue] = ["label": .label(labels[key]!)]
            if key.role == .state { properties["enabled"] = .boolean(false) }
            return MenuItem(id: id, properties: properties)
        }
        if !items.isEmpty { items.append(MenuItem(id: MenuIDs.separator, properties: ["type": .string("separator")])) }
        items.append(MenuItem(id: MenuIDs.openApp, properties: ["label": .label(IndicatorText.openApp)]))
        if appRunning { items.append(MenuItem(id: MenuIDs.quitApp, properties: ["label": .label(IndicatorText.quitApp)])) }
        return replaceMenuItems(with: items)
    }

    private mutating func replaceMenuItems(with items: [MenuItem]) -> Signal? {
        let old = menu.items
        guard items != old else { return nil }
        menu.items = items
        guard items.map(\.id) == old.map(\.id) else {
            menu.revision &+= 1
            return .layoutUpdated(revision: menu.revision, parent: MenuIDs.root)
        }
        var updated: [MenuItem] = []
        var removed: [RemovedProperties] = []
        for (before, after) in zip(old, items) where before != after {
            let changed = after.properties.filter { before.properties[$0.key] != $0.value }
            if !changed.isEmpty { updated.append(MenuItem(id: after.id, properties: changed)) }
            let gone = before.properties.keys.filter { after.properties[$0] == nil }.sorted()
            if !gone.isEmpty { removed.append(RemovedProperties(id: after.id, names: gone)) }
        }
        return .itemsPropertiesUpdated(updated: updated, removed: removed)
    }

    private mutating func takeActivationToken() -> String? {
        defer { activationToken = nil }
        return activationToken
    }
}
