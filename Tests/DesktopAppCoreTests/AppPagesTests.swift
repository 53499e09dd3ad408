import DesktopAppCore
import Testing
import GLibParsing

@Suite struct AppPagesTests {
    @Test func theConfigurationErrorPageNamesTheMistake() {
        let page = AppPages.configurationError("/etc/xdg/dreamsforlittles/sleep-agent.conf:3: [app] web-origin: must use https")
        #expect(page.contains("<h1>The configuration cannot be used</h1>"))
        #expect(page.contains("/etc/xdg/dreamsforlittles/sleep-agent.conf:3: [app] web-origin: must use https"))
        #expect(!page.contains("<script"))
    }

    @Test func textsAreEscaped() {
        let page = AppPages.configurationError("/x.conf:2: [app] web-origin: <script>alert(1)</script> is not an origin")
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("&lt;script&gt;"))
        #expect(AppPages.escape(#"a&b<c>"d'"#) == "a&amp;b&lt;c&gt;&quot;d&#39;")
    }

    @Test func theOfflinePageSaysWhenItTriesAgainAndLinksToTheWebApp() {
        let page = AppPages.offline(origin: "https://app.example", retryURL: "https://app.example/", retrySeconds: 4)
        #expect(page.contains("Trying again in 4 seconds."))
        #expect(page.contains(#"href="https://app.example/""#))
    }

}

@Suite struct AppPathsTests {
    @Test func websiteDataCacheAndStateFollowXDG() {
        let paths = AppPaths(environment: ["HOME": "/home/p", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "relative"])
        #expect(paths.websiteData == "/d/dreamsforlittles")
        #expect(paths.cache == "/home/p/.cache/dreamsforlittles")
        #expect(paths.state == "/home/p/.local/state/dreamsforlittles")
        #expect(paths.windowState == "/home/p/.local/state/dreamsforlittles/window.conf")
    }

    @Test func theBridgeIsBesideTheAppUnlessSet() {
        #expect(AppPaths.bridgeProgram(environment: [:], executable: "/usr/bin/dreamsforlittles") == "/usr/bin/dfl-webview-bridge")
        #expect(AppPaths.bridgeProgram(environment: ["DFL_WEBVIEW_BRIDGE": "/opt/b"], executable: "/usr/bin/x") == "/opt/b")
        #expect(AppPaths.bridgeProgram(environment: ["DFL_WEBVIEW_BRIDGE": "b"], executable: "/usr/bin/x") == "/usr/bin/dfl-webview-bridge")
    }

    @Test func theWindowStateRoundTripsAndUnreadableFilesGiveTheStandardSize() {
        let state = WindowState(width: 800, height: 600, maximized: true)
        #expect(WindowState(parsing: state.serialized, keyFiles: GLibKeyFiles()) == state)
        #expect(WindowState(parsing: "garbage", keyFiles: GLibKeyFiles()) == .standard)
        #expect(WindowState(parsing: "[window]\nwidth=5\nheight=999999\n", keyFiles: GLibKeyFiles()) == WindowState(width: 360, height: 16_384, maximized: false))
    }
}

/// What a screen reader meets on the app's own pages: the language, a
/// heading, and the text in the order it is shown.
@Suite struct AppPagesAccessibilityTests {
    static let pages = [
        AppPages.configurationError("/x.conf:2: [app] web-origin: not an origin"),
        AppPages.offline(origin: "https://app.example", retryURL: "https://app.example/", retrySeconds: 4),
        AppPages.insecure(origin: "https://app.example", retrySeconds: 4),
        AppPages.crashed(),
    ]

    @Test func everyPageSaysItsLanguageAndHasOneHeading() {
        for page in Self.pages {
            #expect(page.contains(#"<html lang="en">"#))
            #expect(page.ranges(of: "<h1>").count == 1)
        }
    }

    @Test func theOfflinePageReadsInOrderHeadingExplanationRetryLink() {
        let page = AppPages.offline(origin: "https://app.example", retryURL: "https://app.example/", retrySeconds: 4)
        let order = ["<h1>Dreams for Littles cannot be reached</h1>", "https://app.example", "Trying again in 4 seconds.",
                     ">Try again now</a>"].map { page.firstRange(of: $0)?.lowerBound }
        #expect(!order.contains(nil))
        #expect(order.map { $0! } == order.map { $0! }.sorted())
    }

    @Test func theWindowTitleSaysWhereThePersonIs() {
        #expect(AppWindowTitle.title(pageTitle: "Sleep") == "Sleep · Dreams for Littles")
        #expect(AppWindowTitle.title(pageTitle: "  Maya's\n sleep ") == "Maya's sleep · Dreams for Littles")
        #expect(AppWindowTitle.title(pageTitle: nil) == "Dreams for Littles")
        #expect(AppWindowTitle.title(pageTitle: "") == "Dreams for Littles")
        #expect(AppWindowTitle.title(pageTitle: "Dreams for Littles") == "Dreams for Littles")
        #expect(AppWindowTitle.title(pageTitle: "Sleep · Dreams for Littles") == "Sleep · Dreams for Littles")
    }
}

/// The pages' own style follows what WebKit is told of the desktop's.
@Suite struct AppPagesStyleTests {
    @Test func everyPageHasALightADarkAndAHighContrastStyle() {
        for page in AppPagesAccessibilityTests.pages {
            #expect(page.contains(#"<meta name="color-scheme" content="light dark">"#))
            #expect(page.contains("@media (prefers-color-scheme: dark)"))
            #expect(page.contains("@media (prefers-contrast: more)"))
            #expect(page.contains("@media (prefers-contrast: more) and (prefers-color-scheme: dark)"))
            #expect(page.contains(#"<body class="dfl-page">"#))
        }
    }

    /// Where WebKit tells no page prefers-contrast, the app's user style
    /// sheet gives its pages the same high-contrast colours.
    @Test func theUserStyleSheetSaysWhatThePagesHighContrastBlockSays() {
        let page = AppPages.crashed()
        for value in ["--page: #ffffff", "--text: #000000", "--page: #000000", "--text: #ffffff", "--link: #ffff00"] {
            #expect(page.contains(value + ";"))
            #expect(AppPages.highContrastStyle.contains(value + " !important;"))
        }
        #expect(AppPages.highContrastStyle.hasPrefix("body.dfl-page {"))
        #expect(AppPages.highContrastStyle.contains("@media (prefers-color-scheme: dark) { body.dfl-page {"))
    }
}
