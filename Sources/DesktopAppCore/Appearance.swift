/// The desktop's style as the settings portal serves it, and what the app's
/// toolkit is told because of it.
///
/// Plain GTK 4 (4.8 on Debian 12, 4.18 on Debian 13) reads neither the
/// colour-scheme preference nor the contrast that GNOME and Plasma publish
/// through org.freedesktop.portal.Settings, and WebKit decides the page's
/// `prefers-color-scheme` and `prefers-contrast` from GtkSettings alone: so
/// the app reads the portal and sets GtkSettings, and the page follows. A key
/// the portal does not serve, or no portal at all, changes nothing: each
/// setting then keeps the toolkit's own value (the desktop's theme,
/// settings.ini, GTK_THEME).
///
/// Pure: AppearanceWatch (Sources/DesktopApp) reads the portal and carries
/// the plan out.
public struct DesktopAppearance: Sendable, Equatable {
    /// `org.freedesktop.appearance color-scheme`.
    public enum ColorScheme: Sendable, Equatable {
        case noPreference, preferDark, preferLight
    }

    /// A portal value, as far as the app reads its type.
    public enum Value: Sendable, Equatable {
        case unsigned(UInt32)
        case signed(Int32)
        case boolean(Bool)
        case double(Double)
    }

    /// The keys the app follows: (namespace, key).
    public enum Key: Sendable, Equatable, CaseIterable {
        /// 0 no preference, 1 prefer dark, 2 prefer light.
        case colorScheme
        /// 0 no preference, 1 high (portal 1.18 and later, or a backend that
        /// serves it: xdg-desktop-portal-gtk 1.15 does).
        case contrast
        /// GNOME's own switch, which xdg-desktop-portal-gtk 1.14 (Debian
        /// 12) serves where it has no `contrast`.
        case gnomeHighContrast
        /// GNOME's Large Text (1.25) or any factor the person set.
        case textScalingFactor

        public var namespace: String {
            switch self {
            case .colorScheme, .contrast: "org.freedesktop.appearance"
            case .gnomeHighContrast: "org.gnome.desktop.a11y.interface"
            case .textScalingFactor: "org.gnome.desktop.interface"
            }
        }

        public var name: String {
            switch self {
            case .colorScheme: "color-scheme"
            case .contrast: "contrast"
            case .gnomeHighContrast: "high-contrast"
            case .textScalingFactor: "text-scaling-factor"
            }
        }

        public init?(namespace: String, name: String) {
            guard let key = Self.allCases.first(where: { $0.namespace == namespace && $0.name == name }) else {
                return nil
            }
            self = key
        }
    }

    /// nil: not served (yet, or by this portal).
    public private(set) var colorScheme: ColorScheme?
    public private(set) var contrast: Bool?
    public private(set) var gnomeHighContrast: Bool?
    public private(set) var textScalingFactor: Double?

    public init() {}

    /// The portal's answer for `key`, or nil when it has none (NotFound, a
    /// type the app does not read). Returns whether anything changed.
    @discardableResult
    public mutating func set(_ key: Key, _ value: Value?) -> Bool {
        let before = self
        switch key {
        case .colorScheme:
            colorScheme = value.flatMap(Self.integer).map { $0 == 1 ? .preferDark : $0 == 2 ? .preferLight : .noPreference }
        case .contrast:
            contrast = value.flatMap(Self.integer).map { $0 == 1 }
        case .gnomeHighContrast:
            if case .boolean(let on)? = value { gnomeHighContrast = on } else { gnomeHighContrast = nil }
        case .textScalingFactor:
            if case .double(let factor)? = value, factor.isFinite, factor > 0 {
                textScalingFactor = min(max(factor, Self.smallestFactor), Self.largestFactor)
            } else {
                textScalingFactor = nil
            }
        }
        return self != before
    }

    /// GNOME's own bounds for the factor (its schema's range).
    static let smallestFactor = 0.5
    static let largestFactor = 3.0

    private static func integer(_ value: Value) -> Int? {
        switch value {
        case .unsigned(let number): Int(number)
        case .signed(let number): Int(number)
        default: nil
        }
    }

    /// Whether the desktop asks for high contrast: the portal's `contrast`
    /// where it serves it, else GNOME's switch; nil when neither is served.
    public var highContrast: Bool? { contrast ?? gnomeHighContrast }
}

/// What the app applies for the desktop's appearance: a rule without memory.
public enum AppearanceRule {
    /// What GtkSettings and the web view are given for what `desktop` asks.
    public static func applied(for desktop: DesktopAppearance) -> AppliedAppearance {
        let scheme: AppliedAppearance.Setting<DesktopAppearance.ColorScheme> = desktop.colorScheme.map { .set($0) } ?? .keep
        // GTK's built-in high-contrast theme, in both releases' names: GTK
        // 4.8 and 4.18 take "HighContrast" with prefer-dark as its dark
        // variant (Default-hc-dark), and WebKit reads the name for
        // prefers-contrast and prefer-dark for prefers-color-scheme.
        let theme: AppliedAppearance.Setting<String> = desktop.highContrast == true ? .set(AppliedAppearance.highContrastTheme) : .keep
        let dpi: AppliedAppearance.Setting<Int> = desktop.textScalingFactor.map { .set(Int((AppliedAppearance.standardDPI * $0).rounded())) } ?? .keep
        return AppliedAppearance(colorScheme: scheme, themeName: theme, xftDPI: dpi, textZoom: desktop.textScalingFactor ?? 1,
                                 pagesHighContrast: desktop.highContrast == true)
    }
}

/// What GtkSettings and the web view are given.
public struct AppliedAppearance: Sendable, Equatable {
    /// A GtkSettings property: set by the app, or left to the toolkit (its
    /// value from the desktop's own settings, reset if the app had set it).
    public enum Setting<T: Sendable & Equatable>: Sendable, Equatable {
        case set(T)
        case keep
    }

    public static let highContrastTheme = "HighContrast"
    /// gtk-xft-dpi at a factor of 1: 96 dots per inch, in 1/1024ths.
    public static let standardDPI = 96.0 * 1024

    /// The colour scheme, where the portal serves one: on GTK 4.20 and
    /// later all three as gtk-interface-color-scheme, which draws the
    /// window (no preference is set too, not handed back: GTK 4.24 then
    /// went back to the dark it had read at start); and, for WebKit, which
    /// reads no other, gtk-application-prefer-dark-theme true, false, or
    /// reset for no preference.
    public var colorScheme: Setting<DesktopAppearance.ColorScheme>
    /// gtk-theme-name.
    public var themeName: Setting<String>
    /// gtk-xft-dpi: the header bar's text. GTK on Wayland reads the factor
    /// itself and comes to the same value; on X11 only an XSETTINGS daemon
    /// (GNOME's, Plasma's) gives it.
    public var xftDPI: Setting<Int>
    /// The web view's text zoom: WebKit draws a page's text at its CSS
    /// sizes whatever gtk-xft-dpi says, so the factor reaches the page as a
    /// zoom of its text alone.
    public var textZoom: Double
    /// The app's own pages get AppPages.highContrastStyle as a user style
    /// sheet: WebKitGTK 2.50 tells them no prefers-contrast.
    public var pagesHighContrast: Bool

    public init(colorScheme: Setting<DesktopAppearance.ColorScheme>, themeName: Setting<String>, xftDPI: Setting<Int>, textZoom: Double,
                pagesHighContrast: Bool = false)
    {
        self.colorScheme = colorScheme
        self.themeName = themeName
        self.xftDPI = xftDPI
        self.textZoom = textZoom
        self.pagesHighContrast = pagesHighContrast
    }

    /// Nothing set: what the app shows with no portal.
    public static let untouched = AppliedAppearance(colorScheme: .keep, themeName: .keep, xftDPI: .keep, textZoom: 1)
}

extension AppLogText {
    public static func appearanceUnread(_ reason: String) -> String {
        "The desktop's style is not read from the settings portal: \(reason)."
    }

    public static func appearance(_ appearance: DesktopAppearance) -> String {
        let scheme = appearance.colorScheme.map { "\($0)" } ?? "not served"
        let contrast = appearance.highContrast.map { $0 ? "high" : "normal" } ?? "not served"
        let factor = appearance.textScalingFactor.map { "\($0)" } ?? "not served"
        return "The desktop's style: colour scheme \(scheme), contrast \(contrast), text scale \(factor)."
    }

    /// After a style line that stands for more than one application.
    public static func appearanceCount(_ count: Int) -> String {
        count == 1 ? "" : " (\(count) applications of the style since the last such line; one line every 5 s at most.)"
    }
}
