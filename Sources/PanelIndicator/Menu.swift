import SleepTimerCore

/// A value of a menu item's property, as com.canonical.dbusmenu carries it
/// in a variant.
public enum MenuValue: Sendable, Equatable {
    case string(String)
    case boolean(Bool)
}

/// One entry of the menu: its id and its properties (the dbusmenu names:
/// `label`, `enabled`, `type`, `children-display`). A property at its
/// default (enabled, visible, type standard) is left out, as the
/// specification allows.
public struct MenuItem: Sendable, Equatable {
    public let id: Int32
    public let properties: [String: MenuValue]

    public init(id: Int32, properties: [String: MenuValue]) {
        self.id = id
        self.properties = properties
    }

    /// The properties asked for; all of them when `names` is empty.
    public func properties(named names: [String]) -> [String: MenuValue] {
        guard !names.isEmpty else { return properties }
        return properties.filter { names.contains($0.key) }
    }
}

/// A part of the layout as GetLayout returns it.
public struct MenuNode: Sendable, Equatable {
    public let id: Int32
    public let properties: [String: MenuValue]
    public let children: [MenuNode]

    public init(id: Int32, properties: [String: MenuValue], children: [MenuNode]) {
        self.id = id
        self.properties = properties
        self.children = children
    }
}

/// The menu as a whole: the root's children in order, and the revision
/// the layout has reached.
public struct Menu: Sendable, Equatable {
    public static let rootProperties: [String: MenuValue] = ["children-display": .string("submenu")]

    /// 1 for the first menu (the one built with the indicator).
    public internal(set) var revision: UInt32 = 0
    public internal(set) var items: [MenuItem] = []

    public func item(_ id: Int32) -> MenuItem? {
        id == MenuIDs.root ? MenuItem(id: id, properties: Self.rootProperties) : items.first { $0.id == id }
    }
}

/// What a timer's menu item does.
enum MenuRole: Hashable, Sendable {
    case complete
    case open
    /// A line that only says where the timer stands ("Saving Maya's sleep…").
    case state
}

struct MenuKey: Hashable, Sendable {
    let timer: TimerID
    let role: MenuRole
}

/// Menu ids. The items that never name a timer have fixed ids; an item
/// for a timer gets an id when it appears, keeps it while it stays, and the
/// id is retired when it goes: a click a host sends for a menu it showed
/// before a change reaches no item, rather than another timer's.
struct MenuIDs: Sendable, Equatable {
    static let root: Int32 = 0
    static let separator: Int32 = 1
    static let openApp: Int32 = 2
    static let quitApp: Int32 = 3
    static let firstTimerItem: Int32 = 16

    private var next = firstTimerItem
    private(set) var meaning: [Int32: MenuKey] = [:]
    private var current: [MenuKey: Int32] = [:]

    /// The ids of `keys`, in order: an item already in the menu keeps its
    /// id; a new one gets the next unused id; the ids of items no longer
    /// in the menu are forgotten and not handed out again (only after
    /// about two billion other items would the counter wrap).
    mutating func assign(_ keys: [MenuKey]) -> [Int32] {
        var assigned: [MenuKey: Int32] = [:]
        var ids: [Int32] = []
        for key in keys {
            let id = current[key] ?? takeNext(avoiding: current)
            assigned[key] = id
            ids.append(id)
        }
        current = assigned
        meaning = Dictionary(uniqueKeysWithValues: assigned.map { ($0.value, $0.key) })
        return ids
    }

    private mutating func takeNext(avoiding inUse: [MenuKey: Int32]) -> Int32 {
        let taken = Set(inUse.values)
        repeat {
            let id = next
            next = next == Int32.max ? Self.firstTimerItem : next + 1
            if !taken.contains(id) { return id }
        } while true
    }
}

extension MenuValue {
    /// A dbusmenu label shows "_" as a mnemonic marker; "__" is one
    /// underscore. Names are shown as typed.
    static func label(_ text: String) -> MenuValue {
        .string(text.replacing("_", with: "__"))
    }
}
