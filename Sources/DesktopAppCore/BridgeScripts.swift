import SleepTimerCore

/// The scripts that give the page its transport to the bridge.
///
/// Two halves, both injected at document start into the top frame only, and
/// only into documents of the web app's origin:
/// - in an isolated script world, which no script of the page or of another
///   frame can reach, the half that holds the message handler: it posts what
///   the page sends, and receives what the app dispatches;
/// - in the page's world, `window.dreamsForLittlesDesktop.transport`
///   (`send`, `onMessage`, `onClose`), which talks to the other half through
///   DOM events on the top window. A frame of another origin cannot dispatch
///   events on that window, and does not get either script.
public enum BridgeScripts {
    /// The isolated world the handler and its half of the transport live in.
    public static let worldName = "dreamsforlittles-bridge"
    /// The script message handler's name, registered in that world only.
    public static let handlerName = "dreamsforlittlesBridge"
    /// The handler the top frame's clicks on links are told to, in the same world.
    public static let clicksHandlerName = "dreamsforlittlesClicks"
    static let sendEvent = "dreamsforlittles-bridge:send"
    static let messageEvent = "dreamsforlittles-bridge:message"
    static let closeEvent = "dreamsforlittles-bridge:close"
    /// Where the sources say which origin they may run in.
    static let originPlaceholder = "__DFL_WEB_ORIGIN__"

    /// The isolated world's half, for the web app at `origin`.
    public static func isolatedWorldSource(origin: APIOrigin) -> String {
        source(PackageResources.bridge_isolated_world_js, origin: origin)
    }

    /// The top frame's reporter of a person's clicks on links, for the web
    /// app at `origin` (NavigationRule lets only those leave the app).
    public static func topFrameClicksSource(origin: APIOrigin) -> String {
        source(PackageResources.top_frame_clicks_js, origin: origin)
    }

    /// The page's half, for the web app at `origin`.
    public static func pageTransportSource(origin: APIOrigin) -> String {
        source(PackageResources.bridge_page_transport_js, origin: origin)
    }

    /// Patterns of the documents the scripts may be injected into. WebKit's
    /// patterns name a host without a port, so each script checks the whole
    /// origin itself as well.
    public static func allowList(origin: APIOrigin) -> [String] {
        ["\(origin.scheme.rawValue)://\(origin.host)/*"]
    }

    private static func source(_ bytes: [UInt8], origin: APIOrigin) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.replacing(originPlaceholder, with: javaScriptString(origin.description))
    }

    /// A script that dispatches one of the bridge's events on the top window,
    /// with `detail` as the event's text.
    static func dispatch(_ event: String, detail: String?) -> String {
        let detailMember = detail.map { ", {detail: \(javaScriptString($0))}" } ?? ""
        return "window.dispatchEvent(new CustomEvent(\(javaScriptString(event))\(detailMember)));"
    }

    /// `text` as a JavaScript string literal: quotes, backslashes, every
    /// control character and the two line separators JavaScript sources
    /// treat as line ends escaped, so that no text can end the literal.
    public static func javaScriptString(_ text: String) -> String {
        var literal = "\""
        literal.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case "<": literal += "\\u003c"  // never "</script>" in any context
            case "\u{2028}": literal += "\\u2028"
            case "\u{2029}": literal += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    literal += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }
}
