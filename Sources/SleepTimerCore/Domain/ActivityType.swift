/// The kinds of timer the platform keeps, spelled as its API and the
/// WebView spell them. Only a Sleep timer is ever mirrored to the desktop;
/// the others are known so that a refusal can say what the timer was.
public enum ActivityType: String, Sendable, Equatable, CaseIterable {
    case sleep
    case breastfeeding
    case pumping
}
