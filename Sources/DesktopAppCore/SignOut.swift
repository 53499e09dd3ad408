/// The window menu's Sign out, for a home the web app's sign-in must leave:
/// a purge of the package removes no user's files, and a person handing
/// the computer on may not find the web app's own sign-out. It clears all
/// of WebKit's website data (local storage with the bearer token, cookies,
/// caches), tells the bridge to forget the session and its token and purge
/// the family's timers from the agent (as the web app's sign-out does), and
/// loads the web app's start, which then asks for a sign-in.
public enum SignOut {
    /// `session.clear` as a JSON-RPC notification (no id): the bridge
    /// answers nothing, so no reply reaches the page.
    public static let bridgeLine: [UInt8] = Array("{\"jsonrpc\":\"2.0\",\"method\":\"session.clear\"}\n".utf8)
}
