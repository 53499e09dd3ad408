import BusNames
import Testing

@Suite struct StandardInterfacesTests {
    @Test func theStandardInterfacesAreAddedBeforeTheLastClosingNode() {
        let file = Array("<node>\n  <interface name=\"x\"/>\n  <node name=\"child\"></node>\n</node>\n".utf8)
        let xml = StandardInterface.introspection(of: file)
        #expect(xml.hasPrefix("<node>\n  <interface name=\"x\"/>\n  <node name=\"child\"></node>\n  <interface name=\"org.freedesktop.DBus.Introspectable\">"))
        #expect(xml.contains("<interface name=\"org.freedesktop.DBus.Properties\">"))
        #expect(xml.contains("<interface name=\"org.freedesktop.DBus.Peer\">"))
        #expect(xml.hasSuffix("  </interface>\n</node>\n"))
    }

    @Test func aFileWithoutAClosingNodeIsLeftAsItIs() {
        #expect(StandardInterface.introspection(of: Array("<node/>".utf8)) == "<node/>")
    }
}
