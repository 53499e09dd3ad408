/// The desktop app beside WebKitGTK's MiniBrowser, in turns, in every
/// round: the app is judged against the browser of the same round.
extension Benchmark {
    func desktopApp() throws {
        let cost = try appCost ?? AppCost(environment: environment)
        if appCost == nil {
            appCost = cost
            // Unmeasured: fonts, caches and the platform's first handshakes.
            if counts.appWarmUp { _ = try cost.measureRound() }
        }
        var app: [PageLoadCost] = []
        var browser: [PageLoadCost] = []
        for _ in 0..<counts.appStarts {
            let pair = try cost.measureRound()
            app.append(pair.app)
            browser.append(pair.miniBrowser)
        }
        measured.add(.pageLoadedApp, Samples(app.map(\.startToLoadedMilliseconds)).median)
        measured.add(.pageLoadedBrowser, Samples(browser.map(\.startToLoadedMilliseconds)).median)
        measured.add(.treeApp, Samples(app.map { Double($0.treeKiB) }).median)
        measured.add(.treeBrowser, Samples(browser.map { Double($0.treeKiB) }).median)
    }
}
