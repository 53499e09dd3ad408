import DFLDBus
import PanelIndicator

extension StatusNotifierIndicator {
    /// Each method of com.canonical.dbusmenu with its input signature.
    static let menuMethods = [
        "GetLayout": "iias", "GetGroupProperties": "aias", "GetProperty": "is", "Event": "isvu",
        "EventGroup": "a(isvu)", "AboutToShow": "i", "AboutToShowGroup": "ai",
    ]
    static let unknownItem = "No item of the menu has this id; the menu has changed since."

    /// com.canonical.dbusmenu at /MenuBar.
    func makeMenu() -> BusObject {
        BusObject(
            connection: connection, path: Self.menuPath, interface: Self.menuInterface,
            introspectionFile: PackageResources.com_canonical_dbusmenu_xml,
            methods: Self.menuMethods,
            properties: {
                [
                    ("Version", .uint32(3)), ("TextDirection", .string("ltr")), ("Status", .string("normal")),
                    ("IconThemePath", .strings([])),
                ]
            },
            call: { [weak self] message, member, arguments in self?.menuCall(message, member, arguments) })
    }

    private func menuCall(_ message: Message, _ member: String, _ arguments: [BusValue]) {
        guard let menu = menuObject else { return }
        switch member {
        case "GetLayout":
            let names = arguments[2].arrayElements?.compactMap(\.stringValue) ?? []
            guard let node = model.layout(
                parent: BusEncoding.int32(arguments[0]) ?? -1, depth: BusEncoding.int32(arguments[1]) ?? -1,
                propertyNames: names)
            else { return menu.fail(message, BusError.Names.invalidArgs, Self.unknownItem) }
            menu.reply(to: message, .uint32(model.menu.revision), BusEncoding.layout(node))
        case "GetGroupProperties":
            let ids = arguments[0].arrayElements?.compactMap(BusEncoding.int32) ?? []
            let names = arguments[1].arrayElements?.compactMap(\.stringValue) ?? []
            menu.reply(to: message, BusEncoding.groupProperties(model.groupProperties(ids: ids, propertyNames: names)))
        case "GetProperty":
            guard let item = model.menu.item(BusEncoding.int32(arguments[0]) ?? -1) else {
                return menu.fail(message, BusError.Names.invalidArgs, Self.unknownItem)
            }
            guard let value = item.properties[arguments[1].stringValue ?? ""] else {
                return menu.fail(message, BusError.Names.invalidArgs, "This menu item has no property of that name.")
            }
            menu.reply(to: message, .variant(BusEncoding.value(value)))
        case "Event":
            let click = model.menuEvent(id: BusEncoding.int32(arguments[0]) ?? -1, event: arguments[1].stringValue ?? "")
            guard click != .unknownItem else {
                return menu.fail(message, BusError.Names.invalidArgs, Self.unknownItem)
            }
            menu.reply(to: message)
            // A call of one click: a fresh EventGroupMachine lets it through.
            var call = EventGroupMachine()
            apply(call.clicked(click), caller: message.sender ?? "?")
        case "EventGroup":
            eventGroup(message, arguments[0].arrayElements ?? [], menu: menu)
        case "AboutToShow":
            guard let needUpdate = model.aboutToShow(BusEncoding.int32(arguments[0]) ?? -1) else {
                return menu.fail(message, BusError.Names.invalidArgs, Self.unknownItem)
            }
            menu.reply(to: message, .boolean(needUpdate))
        default: // AboutToShowGroup
            let ids = arguments[0].arrayElements?.compactMap(BusEncoding.int32) ?? []
            let unknown = ids.filter { model.aboutToShow($0) == nil }
            menu.reply(to: message, .array(elementSignature: "i", []), .array(elementSignature: "i", unknown.map(BusValue.int32)))
        }
    }

    /// Events in one call (libdbusmenu's clients send clicks this way),
    /// each acted on before the next is read, so a click repeated in one
    /// group meets the menu the first one left; EventGroupMachine keeps what they
    /// ask for to once a call: a thousand clicks on Open in one message
    /// open the app once. Ids not in the menu come back in idErrors and do
    /// nothing; when none is valid, the call fails, as libdbusmenu's own
    /// server answers.
    private func eventGroup(_ message: Message, _ events: [BusValue], menu: BusObject) {
        var unknown: [Int32] = []
        var call = EventGroupMachine()
        for event in events {
            guard case .structure(let fields) = event, fields.count == 4, let id = BusEncoding.int32(fields[0]) else { continue }
            let click = model.menuEvent(id: id, event: fields[1].stringValue ?? "")
            guard click != .unknownItem else {
                unknown.append(id)
                continue
            }
            apply(call.clicked(click), caller: message.sender ?? "?")
        }
        guard unknown.isEmpty || unknown.count < events.count else {
            return menu.fail(message, BusError.Names.invalidArgs, Self.unknownItem)
        }
        menu.reply(to: message, .array(elementSignature: "i", unknown.map(BusValue.int32)))
    }
}
