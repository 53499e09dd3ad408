/// The Dreams for Littles product's own addresses, said once: the web app
/// the desktop app shows and deep links fall back to, and the platform API
/// timers and their tokens come from. A desktop wrapper ships with them so
/// that its first start needs no file edited; the configuration overrides
/// them (`[app] web-origin`, `[platform] allowed-origins`) for another
/// platform, such as a test or staging one.
public enum ProductOrigins {
    /// The web app: `https://app.dreamsforlittles.com`.
    public static let webApp = APIOrigin(productHost: "app.dreamsforlittles.com")
    /// The platform's API: `https://api.dreamsforlittles.com`.
    public static let api = APIOrigin(productHost: "api.dreamsforlittles.com")
    /// The origins timers are accepted from when the configuration names none.
    public static var allowedOrigins: AllowedOrigins { AllowedOrigins([api]) }
}

extension APIOrigin {
    /// An https origin on the default port, for the product's constants
    /// alone: the host is written in its canonical form, which a unit test
    /// holds to what parsing the origin gives, so no parse can fail at
    /// start.
    init(productHost host: String) {
        scheme = .https
        self.host = host
        port = nil
    }
}
