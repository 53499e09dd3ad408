import DFLDBus
import PanelIndicator

extension StatusNotifierIndicator {
    /// Each method of org.kde.StatusNotifierItem with its input signature.
    static let itemMethods = [
        "ProvideXdgActivationToken": "s", "ContextMenu": "ii", "Activate": "ii", "SecondaryActivate": "ii", "Scroll": "is",
    ]

    /// org.kde.StatusNotifierItem at /StatusNotifierItem.
    func makeItem() -> BusObject {
        BusObject(
            connection: connection, path: Self.itemPath, interface: Self.itemInterface,
            introspectionFile: PackageResources.org_kde_StatusNotifierItem_xml,
            methods: Self.itemMethods,
            properties: { [weak self] in self?.itemProperties() ?? [] },
            call: { [weak self] message, member, arguments in self?.itemCall(message, member, arguments) })
    }

    func itemProperties() -> [(String, BusValue)] {
        [
            ("Category", .string(PanelItemMachine.category)),
            ("Id", .string(PanelItemMachine.itemID)),
            ("Title", .string(model.title)),
            ("Status", .string(model.status.rawValue)),
            ("WindowId", .int32(0)),
            ("IconThemePath", .string("")),
            ("Menu", .objectPath(Self.menuPath)),
            ("ItemIsMenu", .boolean(false)),
            ("IconName", .string(PanelItemMachine.iconName)),
            ("IconPixmap", BusEncoding.noPixmap),
            ("OverlayIconName", .string("")),
            ("OverlayIconPixmap", BusEncoding.noPixmap),
            ("AttentionIconName", .string("")),
            ("AttentionIconPixmap", BusEncoding.noPixmap),
            ("AttentionMovieName", .string("")),
            ("ToolTip", BusEncoding.toolTip(model.toolTip(at: clock.now()))),
        ]
    }

    private func itemCall(_ message: Message, _ member: String, _ arguments: [BusValue]) {
        switch member {
        case "Activate":
            item?.reply(to: message)
            apply(model.activated(), caller: message.sender ?? "?")
        case "ProvideXdgActivationToken":
            model.activationTokenProvided(arguments[0].stringValue ?? "")
            item?.reply(to: message)
        default:
            // ContextMenu: the host shows the Menu itself. SecondaryActivate
            // and Scroll: nothing to do.
            item?.reply(to: message)
        }
    }
}
