import SleepTimersAPI

/// What a notification server can do, from its GetCapabilities and
/// GetServerInformation answers.
public struct NotificationServerTraits: Sendable, Equatable {
    /// Draws action buttons (or otherwise lets the user invoke actions).
    public var actions: Bool
    /// Interprets markup in the body, so text must be escaped.
    public var bodyMarkup: Bool
    /// Hands the body to a reader that cannot be known, which may or may
    /// not read markup (the notification portal's backends): the body then
    /// leaves out what would start markup (NotificationBody).
    public var bodyMayBeMarkup: Bool = false
    /// Alerts the user again on every in-place update (GNOME Shell does),
    /// which makes a live elapsed time a nuisance.
    public var alertsOnUpdate: Bool
    /// Shows a replaced notification again as a banner unless its urgency
    /// is low (GNOME Shell 46 and later; 48 goes by the urgency it held
    /// before the replace), and a new one unless its own is; GNOME 43 shows
    /// it again whatever the urgency, and the other servers update in place
    /// quietly.
    public var bannersUnlessLowUrgency: Bool = false
    /// Draws no button for the body's click, the "default" action (GNOME
    /// Shell, Plasma): Open is then offered as a button of its own too, so
    /// the parent reads Open and Complete as words, as on xfce4-notifyd,
    /// which draws "default" as a button labelled with its name.
    public var needsOpenButton: Bool = false

    public init(actions: Bool, bodyMarkup: Bool, alertsOnUpdate: Bool) {
        self.actions = actions
        self.bodyMarkup = bodyMarkup
        self.alertsOnUpdate = alertsOnUpdate
    }

    /// The action-icons capability is not taken up: every server that
    /// offers it (xfce4-notifyd) then draws the icon alone, without the
    /// label, so Complete would be a lone check mark beside "Open" in words.
    public init(capabilities: [String], serverName: String, version: String = "") {
        actions = capabilities.contains("actions")
        bodyMarkup = capabilities.contains("body-markup")
        let gnome = serverName.lowercased() == "gnome-shell"
        alertsOnUpdate = gnome
        bannersUnlessLowUrgency = gnome && (Self.majorVersion(version) ?? 0) >= 46
        needsOpenButton = gnome || serverName == "Plasma"
    }

    /// How the body is read, for NotificationBody.
    public var bodyReading: NotificationBody.Reading {
        bodyMarkup ? .markup : bodyMayBeMarkup ? .eitherWay : .plainText
    }

    /// The leading number of a version such as "48.7"; nil when there is none.
    static func majorVersion(_ version: String) -> Int? {
        let digits = version.prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }

    /// Whether the elapsed time is updated in place, as configured.
    public func updatesElapsedTime(_ mode: LiveElapsedMode) -> Bool {
        switch mode {
        case .on: return true
        case .off: return false
        case .auto: return !alertsOnUpdate
        }
    }
}

/// The actions a notification offers.
public enum NotificationAction: String, Sendable, CaseIterable {
    /// A click on the body: opens the app at the timer.
    case open = "default"
    /// Open again, as a button, where the server draws none for the body's
    /// click (NotificationServerTraits.needsOpenButton); it does what a
    /// click on the body does.
    case openButton = "open"
    case complete

    /// The action of a key the server sent back.
    public init?(key: String) {
        guard let action = Self(rawValue: key) else { return nil }
        self = action
    }

    public var label: String {
        switch self {
        // TRANSLATORS: A notification's action (a click on it, or a button
        // on servers that draw one): opens the app at the sleep.
        case .open, .openButton: return trc("notification action", "Open")
        // TRANSLATORS: The button of a running sleep's notification: ends
        // the sleep now and saves it.
        case .complete: return trc("notification action", "Complete")
        }
    }
}

/// One notification: its text, actions and lifetime.
public struct NotificationContent: Sendable, Equatable {
    public var summary: String
    public var body: String
    public var actions: [NotificationAction]
    /// Stays until closed (resident, never expires), or goes by itself.
    public var persistent: Bool
    /// Normal for a running sleep (it matters, but a baby sleeping is no
    /// emergency: never critical), low for a sleep saved, which goes by
    /// itself. The notification machine lowers it for an update in place that
    /// is no news, where the server would show it again otherwise.
    public var urgency: NotificationUrgency

    /// The installed icon of the app, for servers that show the sender's icon.
    public static let appIcon = AppIdentity.appID

    public init(summary: String, body: String, actions: [NotificationAction], persistent: Bool) {
        self.summary = summary
        self.body = body
        self.actions = actions
        self.persistent = persistent
        urgency = persistent ? .normal : .low
    }

    /// The same text, actions and lifetime, whatever the urgency: an
    /// update that would change only the urgency is not worth a Notify.
    public func sameApartFromUrgency(_ other: NotificationContent) -> Bool {
        var other = other
        other.urgency = urgency
        return self == other
    }

    /// How long a transient notification stays: the timeout the server is
    /// asked for (in whole milliseconds on the bus).
    public static let transientTimeout: Duration = .seconds(6)

    /// How long after its own timeout a transient notification is closed
    /// by the agent, for a server that ignores the timeout.
    public static let ignoredTimeoutGrace: Duration = .seconds(4)

    /// The longest a transient notification ("Sleep saved") stays, on any
    /// server: its timeout, and the grace after it.
    public static let transientLifetime: Duration = transientTimeout + ignoredTimeoutGrace

    /// The notification for a timer in `phase`. The summary is plain text
    /// (servers show it literally); the body is escaped where the server
    /// reads markup. `liveElapsed` says whether the text is updated on the
    /// minute: where it is not, it carries no elapsed time, which would be
    /// wrong a minute later, only what stays true.
    public static func make(
        babyName: BabyName, phase: TimerPhase, startedAt: Instant, now: Instant, rules: TimeZoneRules,
        timeFormat: TimeFormat, server: NotificationServerTraits, liveElapsed: Bool
    ) -> NotificationContent {
        let name = ["name": babyName.text]
        // TRANSLATORS: The title of a notification about a sleep that is
        // over or being saved; {name} is the baby's name.
        let sleepOf = tr("{name}'s sleep").filling(name)
        var content: NotificationContent
        switch phase {
        case .running(let canComplete):
            var body = liveElapsed
                ? DisplayText.runningBody(start: startedAt, now: now, rules: rules, timeFormat: timeFormat)
                : DisplayText.staticRunningBody(start: startedAt, now: now, rules: rules, timeFormat: timeFormat)
            var actions: [NotificationAction] = server.needsOpenButton ? [.open, .openButton] : [.open]
            if canComplete && server.actions {
                actions.append(.complete)
            } else {
                // TRANSLATORS: Added on a line of its own where the server
                // shows no buttons: the sleep can be ended in the app.
                body += "\n" + (canComplete ? tr("Open the app to complete it.") : tr("Open the app to finish it."))
            }
            // TRANSLATORS: The title of a running sleep's notification;
            // {name} is the baby's name. Prefer a phrasing without gender.
            let asleep = tr("{name} is asleep").filling(name)
            content = NotificationContent(summary: asleep, body: body, actions: actions, persistent: true)
        case .saving(let waitingForNetwork):
            content = NotificationContent(
                summary: sleepOf,
                // TRANSLATORS: A completed sleep is being sent to the app's server.
                body: waitingForNetwork ? tr("Saving… It will save when you are back online.") : tr("Saving…"),
                actions: [], persistent: true)
        case .saved(let minutes):
            // TRANSLATORS: The app's server has saved the sleep; {duration} is
            // how long it lasted ("1 h 23 min").
            let saved = tr("Sleep saved · {duration}").filling(["duration": DisplayText.duration(minutes: minutes)])
            content = NotificationContent(summary: sleepOf, body: saved, actions: [], persistent: false)
        case .failed:
            content = NotificationContent(
                // TRANSLATORS: The sleep cannot be saved from the desktop; the
                // parent has to finish it in the app.
                summary: sleepOf, body: tr("Couldn't save. Open the app to finish"),
                actions: server.needsOpenButton ? [.open, .openButton] : [.open], persistent: true)
        }
        if !server.actions { content.actions = [] }
        content.body = NotificationBody.text(content.body, readAs: server.bodyReading)
        return content
    }
}

extension NotificationContent {
    /// The short notice of "Complete the running Sleep" (a shortcut, or
    /// `dfl-sleepctl complete --running`) when no Sleep can be completed
    /// here: no buttons, gone by itself.
    public static var noSleepRunning: NotificationContent {
        NotificationContent(
            // TRANSLATORS: The title of a short notice shown when "Complete
            // the running Sleep" (a keyboard shortcut) finds no sleep.
            summary: tr("No Sleep is running"),
            // TRANSLATORS: The body of that notice.
            // (Read as markup or as plain text alike, whichever the server does.)
            body: NotificationBody.text(tr("There is no running Sleep to complete."), readAs: .eitherWay),
            actions: [], persistent: false)
    }
}

/// The urgency hint of the specification; critical is never used.
public enum NotificationUrgency: UInt8, Sendable, Equatable {
    case low = 0
    case normal = 1
}
