/// When the desktop's style is applied. Each application can make GTK
/// reload its theme, which holds the main loop, and the portal's
/// SettingChanged signals come in bursts (a slider dragged, a script, a
/// flooding process). So a change only asks for one idle turn of the loop,
/// and the style is applied, and logged, there: once for the burst, with the
/// last values. A burst that ends where the last application left the style
/// applies and logs nothing.
public struct AppearanceBurst: Sendable, Equatable {
    private var idleAskedFor = false
    private var applied: DesktopAppearance?

    public init() {}

    /// A setting changed; true when the shell must add the idle source (one
    /// is not waiting already).
    public mutating func changed() -> Bool {
        guard !idleAskedFor else { return false }
        idleAskedFor = true
        return true
    }

    /// The loop is idle after the burst (or the first reading is complete);
    /// true when `appearance` is to be applied and logged.
    public mutating func settle(_ appearance: DesktopAppearance) -> Bool {
        idleAskedFor = false
        guard appearance != applied else { return false }
        applied = appearance
        return true
    }
}
