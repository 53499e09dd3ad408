// libFuzzer target: what reaches the desktop app from outside.
//
// Each input is read two ways: as a link given to the app (the command line,
// xdg-open, the portal, the agent's opener) and as a message the page posts
// for the bridge. A link must be refused, or turn into the one canonical
// Sleep route with nothing of the input but three UUIDs; the navigation
// policy must decide every URL without trapping; a message must become at
// most one line, and a line of the bridge a script whose string literal
// nothing can end. Any violation traps, which libFuzzer reports as a crash.
//
// libFuzzer's own main is linked in by `--sanitize=fuzzer`; this file has no
// top-level code. Run it through scripts/fuzz.sh.

import DesktopAppCore
import SleepTimerCore

let origin = try! APIOrigin(parsing: "https://app.dreamsforlittles.example")
let policy = NavigationRule(webOrigin: origin)
let relay = BridgeRelayRule(policy: policy)
let page = "https://app.dreamsforlittles.example/"

func violation(_ what: String) -> Never {
    fatalError("desktop app invariant violated: \(what)")
}

/// Lower-case hexadecimal digits and hyphens only: what a canonical UUID is made of.
func isCanonicalUUIDText(_ text: Substring) -> Bool {
    text.utf8.count == 36 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || $0 == 45 }
}

func checkLink(_ text: String) {
    guard let link = try? AppDeepLink(parsing: text) else { return }
    let web = link.webURL(origin: origin)
    let prefix = origin.description + "/families/"
    guard web.hasPrefix(prefix) else { violation("the route leaves the web app: \(web)") }
    let parts = web.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 5, parts[1] == "babies", parts[3] == "track", parts[4].hasPrefix("sleep?timer="),
        isCanonicalUUIDText(parts[0]), isCanonicalUUIDText(parts[2]),
        isCanonicalUUIDText(parts[4].dropFirst("sleep?timer=".count))
    else { violation("an accepted link gave another shape: \(web)") }
    guard (try? AppDeepLink(parsing: link.url)) == link else { violation("the canonical link does not read back") }
    guard policy.decision(for: web, at: .mainFrameResponse) == .load else { violation("the route is not the web app's") }
}

func checkMessage(_ text: String) {
    switch relay.line(forMessage: text, pageURL: page) {
    case .success(let line):
        guard line.last == 10, !line.dropLast().contains(10), !line.contains(13) else {
            violation("a message became more than one line")
        }
    case .failure(let drop):
        guard drop != .notTheWebApp(origin.description) else { violation("the web app's own page was refused") }
    }
    guard case .success(let script) = relay.script(forLine: Array(text.utf8), pageURL: page) else {
        violation("a line for the web app was dropped")
    }
    // The only quotes of the script are the literal's own and those
    // escaped inside it, and nothing in it ends a line or a script element.
    guard !script.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "<" })
    else { violation("a script holds a raw line end or <") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    checkLink(text)
    _ = policy.decision(for: text, at: .navigation(userGesture: size % 2 == 0))
    _ = policy.decision(for: text, at: .newWindow(userGesture: size % 3 == 0))
    checkMessage(text)
    return 0
}
