/// Where Back goes. The app's own pages (offline, insecure) are shown in
/// place of the page that failed, at its address, and the retry that
/// follows loads that address again: WebKit keeps each of those as a page
/// of the history, so after a failed start Back would only show the same
/// page again. Back skips the history's pages at the address shown now, and
/// is offered only when an earlier, different page is there.
public enum BackRule {
    /// How many pages back Back goes (1 is the previous page), given the
    /// address shown now and the history's addresses before it, the
    /// nearest first; nil when no earlier page is another.
    public static func distance(current: String?, history: [String?]) -> Int? {
        history.firstIndex { $0 != nil && $0 != current }.map { $0 + 1 }
    }
}
