import DFLDBus
import PanelIndicator

/// The indicator's values in the D-Bus types of the two specifications.
enum BusEncoding {
    static func value(_ value: MenuValue) -> BusValue {
        switch value {
        case .string(let text): return .string(text)
        case .boolean(let flag): return .boolean(flag)
        }
    }

    /// `a{sv}`, in name order so that equal menus marshal alike.
    static func properties(_ properties: [String: MenuValue]) -> BusValue {
        .vardict(properties.sorted { $0.key < $1.key }.map { ($0.key, value($0.value)) })
    }

    /// `(ia{sv}av)`: an item, its properties and its children, each child a
    /// variant holding the same structure.
    static func layout(_ node: MenuNode) -> BusValue {
        .structure([
            .int32(node.id), properties(node.properties),
            .array(elementSignature: "v", node.children.map { .variant(layout($0)) }),
        ])
    }

    /// `a(ia{sv})`
    static func groupProperties(_ items: [MenuItem]) -> BusValue {
        .array(elementSignature: "(ia{sv})", items.map { .structure([.int32($0.id), properties($0.properties)]) })
    }

    /// `a(ias)`
    static func removedProperties(_ removed: [PanelItemMachine.RemovedProperties]) -> BusValue {
        .array(elementSignature: "(ias)", removed.map { .structure([.int32($0.id), .strings($0.names)]) })
    }

    /// `a(iiay)` with no image: the icon is named, not drawn here. Made
    /// when asked rather than kept in a global: a BusValue's box is held
    /// through a tagged pointer, which LeakSanitizer cannot follow.
    static var noPixmap: BusValue { .array(elementSignature: "(iiay)", []) }

    /// `(sa(iiay)ss)`: icon name, icon pixmaps, title, description.
    static func toolTip(_ toolTip: PanelItemMachine.ToolTip) -> BusValue {
        .structure([.string(PanelItemMachine.iconName), noPixmap, .string(toolTip.title), .string(toolTip.description)])
    }

    static func int32(_ value: BusValue) -> Int32? {
        if case .int32(let number) = value { return number }
        return nil
    }
}
