/// When the desktop's style is applied. Each application can make GTK
/// reload its theme, which holds the main loop, and the portal's
/// SettingChanged signals come in bursts (a slider dragged, a script, a
/// flooding process). So a change only asks for one idle turn of the loop,
/// and the style is applied, and logged, there: once for the burst, with the
/// last values. A burst that ends where the last application left the style
/// applies and logs nothing.
public struct AppearanceBurstMachine: Sendable, Equatable {
    public struct State: Sendable, Equatable {
        /// An idle turn of the loop is asked for and not come yet.
        public var idleAskedFor = false
        /// The style last applied; nil before the first.
        public var applied: DesktopAppearance?
    }

    public private(set) var state = State()

    public init() {}

    public enum ChangedAction: Sendable, Equatable {
        /// Add the idle source: none is waiting already.
        case askForIdle
    }

    /// A setting changed; nil when an idle turn is asked for already.
    public mutating func changed() -> ChangedAction? {
        guard !state.idleAskedFor else { return nil }
        state.idleAskedFor = true
        return .askForIdle
    }

    public enum BecameIdleAction: Sendable, Equatable {
        /// Apply and log this style.
        case apply(DesktopAppearance)
    }

    /// The loop is idle after the burst (or the first reading is complete),
    /// with the style as it is now; nil when the last application left it so.
    public mutating func becameIdle(with appearance: DesktopAppearance) -> BecameIdleAction? {
        state.idleAskedFor = false
        guard appearance != state.applied else { return nil }
        state.applied = appearance
        return .apply(appearance)
    }
}
