import DFLDBus
import PanelIndicator
import Testing
@testable import StatusNotifier

/// The indicator's values in the types the two specifications name.
@Suite struct BusEncodingTests {
    @Test func aLayoutIsAnItemWithItsPropertiesAndVariantChildren() {
        let node = MenuNode(id: 0, properties: ["children-display": .string("submenu")], children: [
            MenuNode(id: 16, properties: ["label": .string("Open Maya's sleep"), "enabled": .boolean(false)], children: []),
        ])
        let value = BusEncoding.layout(node)
        #expect(value.signature == "(ia{sv}av)")
        guard case .structure(let fields) = value, case .array("v", let children) = fields[2],
            case .variant(let child)? = children.first
        else {
            Issue.record("not a layout: \(value)")
            return
        }
        #expect(child.signature == "(ia{sv}av)")
        #expect(child == BusValue.structure([
            .int32(16), .vardict([("enabled", .boolean(false)), ("label", .string("Open Maya's sleep"))]),
            .array(elementSignature: "v", []),
        ]))
    }

    @Test func theSignalsAndRepliesHaveTheSpecifiedSignatures() {
        #expect(BusEncoding.groupProperties([MenuItem(id: 2, properties: [:])]).signature == "a(ia{sv})")
        #expect(BusEncoding.removedProperties([.init(id: 2, names: ["enabled"])]).signature == "a(ias)")
        #expect(BusEncoding.toolTip(.init(title: "t", description: "d")).signature == "(sa(iiay)ss)")
        #expect(BusEncoding.groupProperties([]).signature == "a(ia{sv})")
    }

    @Test func theToolTipCarriesTheAppsIconName() {
        #expect(BusEncoding.toolTip(.init(title: "t", description: "d"))
            == .structure([.string("com.dreamsforlittles.DreamsForLittles"), .array(elementSignature: "(iiay)", []), .string("t"), .string("d")]))
    }
}

/// The introspection data and the methods served say the same.
@Suite struct IntrospectionTests {
    private func methods(in xml: [UInt8]) -> [String: String] {
        var result: [String: String] = [:]
        let text = String(decoding: xml, as: UTF8.self)
        for chunk in text.split(separator: "<method name=\"").dropFirst() {
            let name = String(chunk.prefix { $0 != "\"" })
            let body = chunk.split(separator: "</method>", maxSplits: 1).first ?? chunk
            var inputs = ""
            for argument in body.split(separator: "<arg ").dropFirst() where argument.contains("direction=\"in\"") {
                if let range = argument.firstRange(of: "type=\"") {
                    inputs += argument[range.upperBound...].prefix { $0 != "\"" }
                }
            }
            result[name] = inputs
        }
        return result
    }

    @Test func theItemServesExactlyTheMethodsItDescribes() {
        #expect(methods(in: PackageResources.org_kde_StatusNotifierItem_xml) == StatusNotifierIndicator.itemMethods)
    }

    @Test func theMenuServesExactlyTheMethodsItDescribes() {
        #expect(methods(in: PackageResources.com_canonical_dbusmenu_xml) == StatusNotifierIndicator.menuMethods)
    }
}
