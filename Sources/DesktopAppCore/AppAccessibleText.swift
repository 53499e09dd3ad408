import SleepTimerCore

/// What assistive technology says of the app's own controls and pages, in
/// the reader's language: a screen reader names an icon button after its
/// image unless it is told better, and picks its voice by a page's `lang`.
public enum AppAccessibleText {
    /// A control's accessible name (what it is) and description (what it
    /// does).
    public struct Control: Sendable, Equatable {
        public let name: String
        public let description: String
    }

    /// The names are the tooltips' words, so that what is seen and what is
    /// heard agree.
    public static var back: Control {
        // TRANSLATORS: What a screen reader says the window's Back button does.
        Control(name: AppText.backTooltip, description: trc("accessible description", "Goes back to the previous page"))
    }
    public static var reload: Control {
        // TRANSLATORS: What a screen reader says the window's Reload button does.
        Control(name: AppText.reloadTooltip, description: trc("accessible description", "Loads the page again"))
    }
    public static var dismiss: Control {
        // TRANSLATORS: What a screen reader says the notice's close button does.
        Control(name: AppText.dismissTooltip, description: trc("accessible description", "Closes this notice"))
    }

    /// The language the app's own words are in, as HTML's `lang` wants it:
    /// the catalog in use says which, English when there is none.
    public static var pageLanguage: String {
        // TRANSLATORS: Not a text to translate: the code of the language of this
        // translation as HTML writes it (de, fr, es, pt-BR, it). A screen reader
        // picks its voice by it.
        let code = trc("language code", "en")
        return isLanguageTag(code) ? code : "en"
    }

    /// Letters, digits and hyphens only: a catalog is text from outside the
    /// program, and this one goes into an attribute.
    static func isLanguageTag(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 35 && text.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
    }
}

/// The window's title says where the person is: the page's own title
/// before the app's name ("Sleep · Dreams for Littles"), the app's name
/// alone while the page has none or says only the app's name.
public enum AppWindowTitle {
    public static func title(pageTitle: String?) -> String {
        let app = AppText.applicationName
        // One line, its runs of white space one space: a title is text from
        // the page.
        let page = (pageTitle ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if page.isEmpty || page == app || page.hasSuffix(" · " + app) { return page.isEmpty ? app : page }
        return page + " · " + app
    }
}
