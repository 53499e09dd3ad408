import SleepTimerCore
import SleepTimersAPI

/// The app's `complete-timer` and `open-timer` actions (AppActionName), as
/// the notification portal delivers them inside a Flatpak: a click on
/// Complete or Open, or on the body, reaches the app through
/// org.freedesktop.Application.ActivateAction with the timer's id as the
/// target, D-Bus activating the app when it is not running. The decisions
/// are here; DesktopApplication+TimerActions carries them out.
///
/// The target is read into a `TimerID` once, where it arrives
/// (`timerID(target:)`), and the app carries that typed id to the agent's
/// Complete and List; the id is written as a string only in the bus call.
public enum TimerActionRule {
    /// Why an action's target is refused: nothing is called and nothing
    /// changes.
    public enum Refusal: Error, Sendable, Equatable {
        /// No target, or one that is not a string (`s`).
        case noTimerID
        /// A string that is not a timer's id (a UUID).
        case notATimerID
    }

    /// The timer an action names. The id goes into a call to the agent and
    /// into the log, so it is read as strictly as a deep link's.
    public static func timerID(target: String?) throws(Refusal) -> TimerID {
        guard let target else { throw .noTimerID }
        guard let id = TimerID(target) else { throw .notATimerID }
        return id
    }

    /// What the agent's answer to Complete means for the app. None is
    /// retried by the app: the agent's outbox holds a recorded completion
    /// until the platform answers, and a refusal would be the same again.
    public enum CompleteOutcome: Sendable, Equatable {
        /// Recorded in the agent's outbox ("queued"); the agent sends it.
        case queued
        /// `CannotComplete`: the completion is already recorded (a second
        /// click, a second delivery of the same click), or the timer has to
        /// be finished in the app. Either way nothing is to be sent again,
        /// so it is not an error.
        case alreadyCompleting
        /// `UnknownTimer`: the timer is no longer mirrored (saved already,
        /// stopped elsewhere, or signed out).
        case notMirrored
        /// Any other error (the agent could not be started, its store
        /// failed): said in the log, with the error's name.
        case failed(String)
    }

    /// What the agent's answer to Complete means: the reply's status, or
    /// the error's D-Bus name.
    public static func completeOutcome(status: String?, errorName: String?) -> CompleteOutcome {
        switch errorName {
        case nil:
            return status == "queued" ? .queued : .failed("an unexpected reply")
        case SleepTimers1.ErrorName.cannotComplete.name:
            return .alreadyCompleting
        case SleepTimers1.ErrorName.unknownTimer.name:
            return .notMirrored
        case let name?:
            return .failed(name)
        }
    }

    /// What becomes of a clicked notification whose timer the agent does
    /// not hold (the notification outlived it: restored by the desktop
    /// after its own restart, or left by an agent that was killed).
    public enum StaleNotice: Sendable, Equatable {
        /// Replaced by one that says the Sleep has already ended and that
        /// nothing was changed, with no button left to press: after
        /// Complete, which shows no window.
        case alreadyEnded
        /// Taken away: after Open, whose window shows the sleeps as they are.
        case withdrawn
    }

    /// After Complete: nothing where the agent took the click or already
    /// holds it; a failure is the log's, the timer may still be running.
    public static func notice(after outcome: CompleteOutcome) -> StaleNotice? {
        switch outcome {
        case .notMirrored: return .alreadyEnded
        case .queued, .alreadyCompleting, .failed: return nil
        }
    }

    /// After Open, once the agent's List answered (`listed`), or nil when
    /// the agent was not reached: only a timer the agent answered it does
    /// not hold has its notification taken away.
    public static func notice(afterOpenListed listed: Bool?) -> StaleNotice? {
        listed == false ? .withdrawn : nil
    }

    /// What `open-timer` does once the agent's List has answered: the
    /// timer's `deep_link`, followed through the same rules as a
    /// `dreamsforlittles://` link given to Open (LinkRule), never loaded as
    /// it is; with no link for this timer (not listed, the agent not
    /// reached, a link to another timer), the window stays on the web app's
    /// start, the Sleep tracker's own default route.
    public static func openSteps(for timerID: TimerID, deepLink: String?) -> [LinkRule.Step] {
        guard let deepLink else { return [.showWindow] }
        let steps = LinkRule.steps(for: [deepLink])
        for case .open(let link) in steps where link.timerID != timerID {
            return [.showWindow]
        }
        return steps
    }
}
