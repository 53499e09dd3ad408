import SleepTimerCore

/// The rules of the relay between the page and `dfl-webview-bridge`, which
/// the app starts as its child and speaks to in newline-delimited JSON-RPC:
/// each text from the page becomes one line on the bridge's stdin, each line
/// the bridge writes becomes one text for the page.
///
/// Decided here, performed by the app: which messages pass, and the script
/// that hands a line to the page (BridgeRestartMachine says when a bridge
/// that ended starts again).
/// The content of a message is never logged: a `session.set` carries the
/// family's sign-in token.
public struct BridgeRelayRule: Sendable {
    /// The bridge refuses longer lines (JSONRPCServer.maximumMessageBytes);
    /// the relay drops them before they reach it.
    public static let maximumMessageBytes = 1 << 20

    public let policy: NavigationRule

    public init(policy: NavigationRule) { self.policy = policy }

    public enum Drop: Error, Sendable, Equatable {
        /// The window's page is not the web app (its origin is named).
        case notTheWebApp(String)
        case notText
        case lineBreak
        case tooLong(Int)
        case noBridge

        public var reason: String {
            switch self {
            case .notTheWebApp(let origin): return AppLogText.dropNotTheWebApp(origin)
            case .notText: return AppLogText.dropNotText
            case .lineBreak: return AppLogText.dropLineBreak
            case .tooLong(let bytes): return AppLogText.dropTooLong(bytes, BridgeRelayRule.maximumMessageBytes)
            case .noBridge: return AppLogText.dropNoBridge
            }
        }
    }

    /// The line to write to the bridge's stdin (newline included) for a
    /// message the page posted, or why it is dropped. `pageURL` is the
    /// window's page when the message arrived: only the web app's top frame
    /// has the handler at all (its script world and scripts are the top
    /// frame's), and this check holds even if that ever changed.
    public func line(forMessage text: String?, pageURL: String?) -> Result<[UInt8], Drop> {
        guard policy.isWebApp(pageURL) else {
            return .failure(.notTheWebApp(Self.originForLog(pageURL)))
        }
        guard let text else { return .failure(.notText) }
        var bytes = Array(text.utf8)
        guard !bytes.contains(UInt8(ascii: "\n")), !bytes.contains(UInt8(ascii: "\r")) else {
            return .failure(.lineBreak)
        }
        guard bytes.count <= Self.maximumMessageBytes else { return .failure(.tooLong(bytes.count)) }
        bytes.append(UInt8(ascii: "\n"))
        return .success(bytes)
    }

    /// The script (run in the bridge's isolated world of the top frame) that
    /// hands one line of the bridge to the page, or why it is dropped.
    public func script(forLine line: [UInt8], pageURL: String?) -> Result<String, Drop> {
        guard policy.isWebApp(pageURL) else {
            return .failure(.notTheWebApp(Self.originForLog(pageURL)))
        }
        var text = String(decoding: line, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        return .success(BridgeScripts.dispatch(BridgeScripts.messageEvent, detail: text))
    }

    /// The script that tells the page the bridge ended.
    public static let closeScript = BridgeScripts.dispatch(BridgeScripts.closeEvent, detail: nil)

    /// Only the origin of a page that is not the web app is logged, never
    /// its path or query.
    static func originForLog(_ url: String?) -> String {
        guard let url, let parsed = WebURL(url) else { return "none" }
        return parsed.origin?.description ?? parsed.scheme + ":"
    }
}
