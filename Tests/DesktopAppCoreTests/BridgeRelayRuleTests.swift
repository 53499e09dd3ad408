import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct BridgeRelayRuleTests {
    let relay = BridgeRelayRule(policy: NavigationRule(webOrigin: try! APIOrigin(parsing: "https://app.example")))
    let page = "https://app.example/families/x"

    @Test func aMessageOfTheWebAppBecomesOneLine() throws {
        let line = try relay.line(forMessage: #"{"jsonrpc":"2.0","id":1,"method":"bridge.getCapabilities"}"#, pageURL: page).get()
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1)
    }

    @Test func aMessageWhileAnotherPageShowsIsDroppedNamingOnlyItsOrigin() {
        let result = relay.line(forMessage: "{}", pageURL: "https://evil.example/secret?token=abc")
        #expect(result == .failure(.notTheWebApp("https://evil.example")))
        guard case .failure(let drop) = result else { return }
        #expect(!drop.reason.contains("token"))
    }

    @Test func lineBreaksNonTextAndOversizedMessagesAreDropped() {
        #expect(relay.line(forMessage: "{}\n{}", pageURL: page) == .failure(.lineBreak))
        #expect(relay.line(forMessage: "{}\r", pageURL: page) == .failure(.lineBreak))
        #expect(relay.line(forMessage: nil, pageURL: page) == .failure(.notText))
        let long = String(repeating: "x", count: BridgeRelayRule.maximumMessageBytes + 1)
        #expect(relay.line(forMessage: long, pageURL: page) == .failure(.tooLong(long.utf8.count)))
    }

    @Test func aMessageOfTheLargestSizeGoesThrough() {
        let largest = String(repeating: "x", count: BridgeRelayRule.maximumMessageBytes)
        #expect(relay.line(forMessage: largest, pageURL: page) == .success(Array(largest.utf8) + [UInt8(ascii: "\n")]))
    }

    @Test func aLineEndingInCarriageReturnIsTheLineWithoutIt() throws {
        let crlf = try relay.script(forLine: Array("{}\r".utf8), pageURL: page).get()
        let plain = try relay.script(forLine: Array("{}".utf8), pageURL: page).get()
        #expect(crlf == plain)
        #expect(plain.contains(#"detail: "{}""#))
    }

    @Test func aLineOfTheBridgeBecomesAnEventWhoseTextCannotEscapeItsLiteral() throws {
        let line = Array(#"{"x":"</script>\u2028 \" \\"}"#.utf8) + [0x0D]
        let script = try relay.script(forLine: line, pageURL: page).get()
        #expect(script.hasPrefix("window.dispatchEvent(new CustomEvent(\"dreamsforlittles-bridge:message\", {detail: \""))
        #expect(!script.contains("</script>"))
        #expect(!script.contains("\r"))
        #expect(relay.script(forLine: line, pageURL: "about:blank") == .failure(.notTheWebApp("about:")))
    }

    @Test func javaScriptStringsEscapeEveryLineEndAndControlCharacter() {
        #expect(BridgeScripts.javaScriptString("a\"b\\c\n\u{2028}\u{2029}\u{1}<") == #""a\"b\\c\n\u2028\u2029\u0001\u003c""#)
    }

    @Test func javaScriptStringsKeepASpaceAndEscapeTheLastControlCharacter() {
        #expect(BridgeScripts.javaScriptString("a b") == #""a b""#)
        #expect(BridgeScripts.javaScriptString("\u{1F}\u{7F}") == #""\u001f\u007f""#)
    }

    @Test func theScriptsNameTheHandlerAndEventsTheAppUses() throws {
        let origin = try APIOrigin(parsing: "https://app.example:8443")
        let isolated = BridgeScripts.isolatedWorldSource(origin: origin)
        let page = BridgeScripts.pageTransportSource(origin: origin)
        #expect(isolated.contains("window.webkit.messageHandlers.\(BridgeScripts.handlerName);"))
        #expect(isolated.contains(#"const WEB_ORIGIN = "https://app.example:8443";"#))
        #expect(page.contains(#"const WEB_ORIGIN = "https://app.example:8443";"#))
        for event in ["dreamsforlittles-bridge:send"] {
            #expect(isolated.contains(event) && page.contains(event))
        }
        #expect(page.contains("dreamsforlittles-bridge:message") && page.contains("dreamsforlittles-bridge:close"))
        #expect(BridgeRelayRule.closeScript.contains("dreamsforlittles-bridge:close"))
        #expect(BridgeScripts.allowList(origin: origin) == ["https://app.example/*"])
    }

    @Test func theClickReporterNamesItsHandlerAndTrustsOnlyAPersonsClicksInTheTopFrame() throws {
        let clicks = BridgeScripts.topFrameClicksSource(origin: try APIOrigin(parsing: "https://app.example:8443"))
        #expect(clicks.contains("window.webkit.messageHandlers.\(BridgeScripts.clicksHandlerName);"))
        #expect(clicks.contains(#"const WEB_ORIGIN = "https://app.example:8443";"#))
        #expect(clicks.contains("window !== window.top"))
        #expect(clicks.contains("if (!event.isTrusted) return;"))
    }
}
