import SleepTimerCore

/// The pages the app shows itself, when the web app cannot be shown: a
/// configuration mistake, offline, an unverified certificate.
/// Self-contained HTML without scripts; every text is escaped, its
/// translation included: a catalog is text from outside the program. Each
/// page says its language (a screen reader picks its voice by it), is
/// headed by its title, and reads in the order it is shown.
public enum AppPages {
    public static func configurationError(_ description: String) -> String {
        page(AppText.configurationErrorTitle, "<p>\(escape(AppText.configurationErrorExplanation(error: description)))</p>")
    }

    /// Shown in place of the web app while it cannot be reached; the app
    /// loads the web app again by itself after `retrySeconds`, and the link
    /// does it at once.
    public static func offline(origin: String, retryURL: String, retrySeconds: Int) -> String {
        page(AppText.offlineTitle, """
            <p>\(escape(AppText.offlineExplanation(origin: origin)))</p>
            <p id="retry">\(escape(AppText.offlineRetry(seconds: retrySeconds)))</p>
            <p><a href="\(escape(retryURL))">\(escape(AppText.offlineRetryNow))</a></p>
            """)
    }

    public static func insecure(origin: String, retrySeconds: Int) -> String {
        page(AppText.insecureTitle, """
            <p>\(escape(AppText.insecureExplanation(origin: origin)))</p>
            <p id="retry">\(escape(AppText.offlineRetry(seconds: retrySeconds)))</p>
            """)
    }

    public static func crashed() -> String {
        page(AppText.crashedTitle, "<p>\(escape(AppText.crashedExplanation))</p>")
    }

    static func page(_ title: String, _ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(escape(AppAccessibleText.pageLanguage))"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
        <title>\(escape(title))</title>
        <style>\(style)</style></head>
        <body class="\(pageClass)"><h1>\(escape(title))</h1>
        \(body)
        </body></html>
        """
    }

    /// The pages follow the desktop's style as WebKit tells it from the
    /// toolkit: dark with the header bar, and in high contrast black on
    /// white (white on black when dark too) with bordered code and thick
    /// link underlines. Colours are WCAG AA or better on their background.
    static var style: String {
        """
        body { --page: #ffffff; --text: #1e1e1e; --link: #1b6acb; --code: rgba(127,127,127,0.15); --rule: transparent; --underline: from-font; }
        @media (prefers-color-scheme: dark) { body { --page: #1e1e1e; --text: #ffffff; --link: #78aeed; } }
        @media (prefers-contrast: more) { body { \(declarations(highContrast)) } }
        @media (prefers-contrast: more) and (prefers-color-scheme: dark) { body { \(declarations(highContrastDark)) } }
        body { background: var(--page); color: var(--text); font: 15px/1.5 system-ui, sans-serif; max-width: 38em; margin: 4em auto; padding: 0 1.5em; }
        h1 { font-size: 1.4em; } code, pre { font-size: 0.95em; }
        pre { padding: 0.8em; background: var(--code); border: 2px solid var(--rule); }
        a { color: var(--link); text-decoration-thickness: var(--underline); }
        a:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
        """
    }

    /// The class of the pages' body, which `highContrastStyle` selects.
    public static let pageClass = "dfl-page"

    /// The high-contrast style for a WebKit that tells no page
    /// prefers-contrast (WebKitGTK 2.50, Debian 12's): the app adds it as a
    /// user style sheet while the desktop asks for high contrast. It selects
    /// the app's own pages only, and says what their `prefers-contrast`
    /// block says, so where WebKit tells the page too both agree.
    public static var highContrastStyle: String {
        """
        body.\(pageClass) { \(declarations(highContrast, important: true)) }
        @media (prefers-color-scheme: dark) { body.\(pageClass) { \(declarations(highContrastDark, important: true)) } }
        """
    }

    private static let highContrast = [("--page", "#ffffff"), ("--text", "#000000"), ("--link", "#0000c0"),
                                       ("--code", "transparent"), ("--rule", "#000000"), ("--underline", "2px")]
    private static let highContrastDark = [("--page", "#000000"), ("--text", "#ffffff"), ("--link", "#ffff00"),
                                           ("--rule", "#ffffff")]

    private static func declarations(_ values: [(String, String)], important: Bool = false) -> String {
        values.map { "\($0.0): \($0.1)\(important ? " !important" : "");" }.joined(separator: " ")
    }

    /// Text as HTML: the five characters with a meaning in markup escaped,
    /// as the notification body escapes them.
    public static func escape(_ text: String) -> String { DisplayText.escapeMarkup(text) }
}
