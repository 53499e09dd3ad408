import SleepTimerCore
import SleepTimersAPI

/// The panel item's decisions, as values: from the timers, the panel (a
/// StatusNotifierWatcher and whether a host shows items) and the
/// `[indicator] show` setting, it says whether the item is published, what
/// its properties and menu are, which signals tell the host of a change,
/// and what a click asks the agent to do. The shell performs the actions on
/// the bus; nothing here does I/O, reads a clock or owns a timer.
public struct PanelItemMachine: Sendable {
    public static let itemID = AppIdentity.agentID
    public static let category = "ApplicationStatus"
    /// The app's icon; hosts that prefer symbolic icons take the
    /// `-symbolic` variant of the same name from the icon theme.
    public static let iconName = AppIdentity.appID
    /// Longer activation tokens are not kept (real ones are tens of bytes).
    public static let maximumActivationTokenLength = 4096

    public struct Settings: Sendable, Equatable {
        /// `[indicator] show`.
        public var visibility: IndicatorVisibility

        public init(visibility: IndicatorVisibility) {
            self.visibility = visibility
        }
    }

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

    /// What tells a host of a change of the item or its menu.
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

    /// What the item and its menu looked like when the host was last told,
    /// to say only what changed.
    fileprivate struct Appearance: Sendable, Equatable {
        let status: Status
        let title: String
        let toolTip: ToolTip
    }

    /// What the machine remembers between events.
    public struct State: Sendable, Equatable {
        /// The agent's timers, in the list order.
        public fileprivate(set) var timers: [IndicatorTimer] = []
        public fileprivate(set) var watcher: Watcher = .absent
        /// The item is on the bus for hosts to show.
        public fileprivate(set) var isPublished = false
        public fileprivate(set) var menu = Menu()
        /// com.dreamsforlittles.DreamsForLittles is on the bus.
        public fileprivate(set) var appRunning = false
        fileprivate var ids = MenuIDs()
        fileprivate var told: Appearance?
        /// From the host (ProvideXdgActivationToken), for the next opening.
        fileprivate var activationToken: String?

        fileprivate init() {}
    }

    public let settings: Settings
    private(set) var state = State()

    public init(settings: Settings) {
        self.settings = settings
        _ = rebuildMenu()
    }

    // MARK: Events

    /// What a change of the item's world leads to, one type for every
    /// event: the shell carries each out the same way, whichever event it
    /// came from. Only a change of the timers or of the watcher registers
    /// or withdraws; the start, a minute boundary and the app's coming or
    /// going (no watcher known to them yet, or nothing settled) publish and
    /// emit only.
    public enum ChangeAction: Sendable, Equatable {
        /// Own the item's bus name: the item exists.
        case publish
        /// Register the item with the watcher (again, for a new watcher).
        case register
        /// Release the item's bus name: the item goes from every host.
        case withdraw
        case emit(Signal)
    }

    /// What the shell does at its start.
    public enum StartedAction: Sendable, Equatable {
        /// Export the item's and the menu's objects and follow the watcher,
        /// then carry these out (with `show=always` the item is published
        /// at once, watcher or not).
        case export(then: [ChangeAction])
        /// `show=never`: the item can never be shown, so nothing of it goes
        /// on the bus, no watcher is followed, and every later event
        /// settles to nothing.
        case stayOffTheBus
    }

    /// The shell starts: the one place `show=never` keeps the item off the
    /// bus (`shouldPublish` keeps it unpublished after that).
    public mutating func started(now: Instant) -> StartedAction {
        guard settings.visibility != .never else { return .stayOffTheBus }
        let retold = retell(now: now)
        return .export(then: (retold.publishes ? [.publish] : []) + retold.signals.map { .emit($0) })
    }

    /// The agent's timers, all of them, as they are now.
    public mutating func timersChanged(_ timers: [IndicatorTimer], now: Instant) -> [ChangeAction] {
        state.timers = timers.sorted {
            TimerOrderRule.precedes(startedAt: $0.startedAt, id: $0.id, before: $1.startedAt, $1.id)
        }
        switch settle(now: now) {
        case .published(let registering): return registering ? [.publish, .register] : [.publish]
        case .withdrawn: return [.withdraw]
        case .told(let signals): return signals.map { .emit($0) }
        }
    }

    /// A minute boundary passed: the elapsed times move on.
    public mutating func minuteBoundary(now: Instant) -> [ChangeAction] {
        let retold = retell(now: now)
        return (retold.publishes ? [.publish] : []) + retold.signals.map { .emit($0) }
    }

    /// The app came onto the bus or left it: while it runs (perhaps with
    /// its window closed, to renew the timers' tokens), the menu can quit it.
    public mutating func appRunningChanged(_ running: Bool, now: Instant) -> [ChangeAction] {
        state.appRunning = running
        let retold = retell(now: now)
        return (retold.publishes ? [.publish] : []) + retold.signals.map { .emit($0) }
    }

    /// A watcher appeared, changed owner (restarted) or went away; or its
    /// host registered or left.
    public mutating func watcherChanged(_ watcher: Watcher, newInstance: Bool, now: Instant) -> [ChangeAction] {
        state.watcher = watcher
        let wasPublished = state.isPublished
        switch settle(now: now) {
        case .published(let registering): return registering ? [.publish, .register] : [.publish]
        case .withdrawn: return [.withdraw]
        case .told(let signals):
            // A restarted watcher knows nothing of the item: register again.
            let again = newInstance && wasPublished && state.isPublished && watcher != .absent
            return (again ? [.register] : []) + signals.map { .emit($0) }
        }
    }

    /// The host handed a token (ProvideXdgActivationToken) for the next
    /// opening; an empty or oversized one is not kept.
    public mutating func activationTokenProvided(_ token: String) {
        guard !token.isEmpty, token.utf8.count <= Self.maximumActivationTokenLength else { return }
        state.activationToken = token
    }

    /// What a primary click on the item leads to.
    public enum ActivatedAction: Sendable, Equatable {
        /// The agent's open, at this timer.
        case open(TimerID, activationToken: String?)
        case openApp(activationToken: String?)
    }

    /// A primary click on the item: the app, at the most recent timer
    /// that can still be opened.
    public mutating func activated() -> ActivatedAction {
        let token = takeActivationToken()
        guard let latest = state.timers.last(where: \.canOpen) else { return .openApp(activationToken: token) }
        return .open(latest.id, activationToken: token)
    }

    /// What a dbusmenu event on an item leads to.
    public enum MenuEventAction: Sendable, Equatable {
        /// No item has this id (any more): nothing is done, and the host
        /// is told so.
        case unknownItem
        /// Not a click, or a click on an item that does nothing (the root,
        /// the separator, a line saying where a timer stands).
        case ignored
        /// The agent's Complete, as the notification's button does it.
        case complete(TimerID)
        /// The agent's open, at this timer.
        case open(TimerID, activationToken: String?)
        case openApp(activationToken: String?)
        /// The app's `quit` action: the running app ends, window or not.
        case quitApp
    }

    /// A dbusmenu event ("clicked", "opened", "closed", "hovered") on an
    /// item. Only a click does anything, and only on an item of the
    /// current menu.
    public mutating func menuEvent(id: Int32, event: String) -> MenuEventAction {
        guard state.menu.item(id) != nil else { return .unknownItem }
        guard event == "clicked" else { return .ignored }
        if id == MenuIDs.openApp { return .openApp(activationToken: takeActivationToken()) }
        if id == MenuIDs.quitApp { return .quitApp }
        guard let key = state.ids.meaning[id] else { return .ignored }
        switch key.role {
        case .complete: return .complete(key.timer)
        case .open: return .open(key.timer, activationToken: takeActivationToken())
        case .state: return .ignored
        }
    }

    // MARK: Reading

    /// Whoever owns the minute tick refreshes the indicator only while
    /// this holds: a host shows the item and an elapsed time is on it.
    public var wantsMinuteRefreshes: Bool {
        state.isPublished && state.watcher == .present(hostRegistered: true) && state.timers.contains(where: \.isRunning)
    }

    /// The next moment an elapsed time shown changes, while refreshes are wanted.
    public func nextMinuteBoundary(after now: Instant) -> Instant? {
        guard wantsMinuteRefreshes else { return nil }
        return state.timers.filter(\.isRunning).map { TimerPhase.nextMinuteBoundary(after: now, startedAt: $0.startedAt) }
            .min()
    }

    public var status: Status { state.timers.isEmpty ? .passive : .active }

    /// The menu as the item shows it now: the shell answers the menu's
    /// GetLayout revision and GetProperty from it.
    public var menu: Menu { state.menu }

    /// The item's title: what is going on, without the minutes.
    public var title: String {
        state.timers.isEmpty
            ? IndicatorText.appName : state.timers.map(\.headline).joined(separator: IndicatorText.titleSeparator)
    }

    /// "Maya asleep · 1 h 37 min", one line per timer, as of `now`.
    public func toolTip(at now: Instant) -> ToolTip {
        ToolTip(
            title: IndicatorText.appName,
            description: state.timers.map { DisplayText.escapeMarkup($0.line(at: now)) }.joined(separator: "\n"))
    }

    /// GetLayout: the item `parent` with its children down to `depth`
    /// levels (-1: all); nil for an id not in the menu.
    public func layout(parent: Int32, depth: Int32, propertyNames: [String]) -> MenuNode? {
        guard let item = state.menu.item(parent) else { return nil }
        let children = parent == MenuIDs.root && depth != 0
            ? state.menu.items.map { MenuNode(id: $0.id, properties: $0.properties(named: propertyNames), children: []) }
            : []
        return MenuNode(id: parent, properties: item.properties(named: propertyNames), children: children)
    }

    /// AboutToShow: whether the host must fetch the layout before showing
    /// the menu. Never: every change is signalled as it happens. nil for an
    /// id not in the menu.
    public func aboutToShow(_ id: Int32) -> Bool? {
        state.menu.item(id) == nil ? nil : false
    }

    /// GetGroupProperties: the items of `ids` that exist (every item when
    /// `ids` is empty), with the properties asked for.
    public func groupProperties(ids: [Int32], propertyNames: [String]) -> [MenuItem] {
        let all = [state.menu.item(MenuIDs.root)!] + state.menu.items
        let chosen = ids.isEmpty ? all : ids.compactMap { state.menu.item($0) }
        return chosen.map { MenuItem(id: $0.id, properties: $0.properties(named: propertyNames)) }
    }

    // MARK: Settling

    private var shouldPublish: Bool {
        switch settings.visibility {
        case .never: return false
        case .always: return true
        case .auto: return state.watcher != .absent && !state.timers.isEmpty
        }
    }

    /// What settling did.
    private enum Settled {
        /// The item was published, and registers when a watcher is there.
        case published(registering: Bool)
        case withdrawn
        /// The item stays as it was; these signals tell a host of its changes.
        case told([Signal])
    }

    /// Brings the published state, the menu and what the host was told in
    /// line with the inputs, for an event that may change whether the item
    /// is published (the timers, the watcher).
    private mutating func settle(now: Instant) -> Settled {
        // An item that is not published and is not about to be shows
        // nothing: its menu and texts are made when it is published, not
        // at every change (without a panel, every change would pay for them).
        guard shouldPublish || state.isPublished else { return .told([]) }
        let menuChange = rebuildMenu()
        let appearance = Appearance(status: status, title: title, toolTip: toolTip(at: now))
        guard shouldPublish == state.isPublished else {
            state.isPublished = shouldPublish
            state.told = state.isPublished ? appearance : nil
            // A host reads everything of an item that registers.
            return state.isPublished ? .published(registering: state.watcher != .absent) : .withdrawn
        }
        return .told(signals(telling: appearance, menuChange: menuChange))
    }

    /// The same for an event that leaves the timers and the watcher as they
    /// were (the start, a minute boundary, the app's coming or going): each
    /// earlier event settled the item's publication, so the only one left
    /// is the first of `show=always`, before anything was settled, when no
    /// watcher is known yet.
    private mutating func retell(now: Instant) -> (publishes: Bool, signals: [Signal]) {
        guard shouldPublish || state.isPublished else { return (false, []) }
        let menuChange = rebuildMenu()
        let appearance = Appearance(status: status, title: title, toolTip: toolTip(at: now))
        guard state.isPublished else {
            state.isPublished = true
            state.told = appearance
            return (true, [])
        }
        return (false, signals(telling: appearance, menuChange: menuChange))
    }

    /// The signals that tell a host of a published item's change.
    private mutating func signals(telling appearance: Appearance, menuChange: Signal?) -> [Signal] {
        var signals: [Signal] = []
        if let told = state.told {
            if appearance.status != told.status { signals.append(.newStatus(appearance.status)) }
            if appearance.title != told.title { signals.append(.newTitle) }
            if appearance.toolTip != told.toolTip { signals.append(.newToolTip) }
        }
        state.told = appearance
        if let menuChange { signals.append(menuChange) }
        return signals
    }

    /// The menu for the current timers; returns the signal that tells a
    /// host of the change, if it changed.
    private mutating func rebuildMenu() -> Signal? {
        var keys: [MenuKey] = []
        var labels: [MenuKey: String] = [:]
        for timer in state.timers {
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
        var items = zip(state.ids.assign(keys), keys).map { id, key in
            var properties: [String: MenuValue] = ["label": .label(labels[key]!)]
            if key.role == .state { properties["enabled"] = .boolean(false) }
            return MenuItem(id: id, properties: properties)
        }
        if !items.isEmpty { items.append(MenuItem(id: MenuIDs.separator, properties: ["type": .string("separator")])) }
        items.append(MenuItem(id: MenuIDs.openApp, properties: ["label": .label(IndicatorText.openApp)]))
        if state.appRunning {
            items.append(MenuItem(id: MenuIDs.quitApp, properties: ["label": .label(IndicatorText.quitApp)]))
        }
        return replaceMenuItems(with: items)
    }

    private mutating func replaceMenuItems(with items: [MenuItem]) -> Signal? {
        let old = state.menu.items
        guard items != old else { return nil }
        state.menu.items = items
        guard items.map(\.id) == old.map(\.id) else {
            state.menu.revision &+= 1
            return .layoutUpdated(revision: state.menu.revision, parent: MenuIDs.root)
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
        defer { state.activationToken = nil }
        return state.activationToken
    }
}
