/// What the app does with the links of one org.freedesktop.Application.Open
/// call: the first good Sleep link opens; a later good one is passed over,
/// so one call never navigates twice; a bad one is refused with its reason,
/// and navigates nowhere; the app's own start page shows the window where
/// it is. The shell (DesktopApplication) carries the steps out in order.
public enum LinkRule {
    /// One thing to do for a link of the call.
    public enum Step: Sendable, Equatable {
        case showWindow
        case open(AppDeepLink)
        case refuse(AppDeepLink.Refusal)
    }

    /// The steps for the links of one Open call, in their order.
    public static func steps(for uris: [String]) -> [Step] {
        var opened = false
        var steps: [Step] = []
        for uri in uris {
            if AppDeepLink.isAppHome(uri) {
                steps.append(.showWindow)
                continue
            }
            do {
                let link = try AppDeepLink(parsing: uri)
                if !opened { steps.append(.open(link)) }
                opened = true
            } catch {
                steps.append(.refuse(error))
            }
        }
        return steps
    }

    /// Whether the steps show or load anything, which spends the caller's
    /// bound (DesktopApplication.admit): refusals alone cost only a line
    /// within the log budget.
    public static func acts(_ steps: [Step]) -> Bool {
        steps.contains { if case .refuse = $0 { return false } else { return true } }
    }
}
