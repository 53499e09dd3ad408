import SleepTimerCore

/// Token renewal: when the agent says a token of a timer this bridge handed
/// over expires soon, and the session that can renew it is live (the same
/// user and family, in self-mode), the timer is upserted again with a token
/// request, from the fields the WebView last gave, and the new token goes
/// to the agent as the first did. The platform revokes the earlier token
/// then (docs/platform-contract.md). `TokenRenewalMachine` decides when,
/// `TokenRequestRule` whether the live session may.
extension SleepTimerBridge {
    func tokenExpiring(_ id: TimerID, expiresAt: Instant) {
        switch renewals.expiring(id, expiresAt: expiresAt, now: clock.now()) {
        case nil: return
        case .renewNow?: renew(id)
        case .renewAt(let moment)?: planRenewal(id, at: moment)
        }
    }

    /// Asks the machine again at `moment`, in place of any moment planned
    /// before.
    private func planRenewal(_ id: TimerID, at moment: Instant) {
        plannedRenewals.removeValue(forKey: id)?.cancel()
        let wait = max(0, min(moment.milliseconds(since: clock.now()), Int64(UInt32.max)))
        plannedRenewals[id] = loop.after(milliseconds: UInt32(wait)) { [weak self] in
            guard let self else { return .remove }
            self.plannedRenewals[id] = nil
            switch self.renewals.due(id, now: self.clock.now()) {
            case nil: break
            case .renewNow?: self.renew(id)
            }
            return .remove
        }
    }

    /// The renewal in flight is over (renewed, or not tried).
    private func renewalSettled(_ id: TimerID) {
        switch renewals.settled(id, now: clock.now()) {
        case nil: return
        case .renewNow?: renew(id)
        case .renewAt(let moment)?: planRenewal(id, at: moment)
        }
    }

    private func renew(_ id: TimerID) {
        guard let handed = mirroredTimers[id], let session,
            TokenRequestRule.stillAsks(for: handed.scope, session: session) == .ask
        else {
            // No live session for the timer's family: the agent keeps
            // showing the sleep, and the app renews when it is opened.
            _ = renewals.settled(id, now: clock.now())
            return
        }
        // A new token revokes the one the agent holds: it is asked for only
        // while this installation's agent is at its name to take it.
        agentVersion { [weak self] version in
            guard let self, self.mirroredTimers[id] != nil else { return }
            guard version != nil else {
                return self.renewalFailed(id, .passing, "this installation's agent does not answer at its name")
            }
            self.renewWithToken(id, handed: handed, session: session)
        }
    }

    private func renewWithToken(_ id: TimerID, handed: RenewableTimer, session: Session) {
        let run = UpsertRun(
            .renewal(), timer: handed.timer, session: session, wanted: { [weak self] in self?.mirroredTimers[id] != nil }
        ) { [weak self] reply, _ in
            guard let self else { return }
            switch reply {
            // A renewal adopts no canonical timer: a conflict is not met.
            case .saved(let native), .conflict(let native, _):
                switch native.outcome {
                case .mirrored:
                    self.log.log(.info, "Renewed the action token of timer \(id).")
                    self.renewalSettled(id)
                default:
                    self.renewalFailed(id, .lasting, "the agent did not take the new token")
                }
            case .refused(let status, let code):
                self.renewalFailed(
                    id, TokenRenewalMachine.failure(refusedWith: status), "the platform answered \(status) \(code)")
            case .unreachable:
                self.renewalFailed(id, .passing, "the platform could not be reached")
            }
        }
        put(handed.timer, requestToken: true, run)
    }

    private func renewalFailed(_ id: TimerID, _ failure: TokenRenewalMachine.Failure, _ why: String) {
        log.log(.notice, "The action token of timer \(id) was not renewed: \(why).")
        switch renewals.failed(id, failure, now: clock.now()) {
        case nil: return
        case .renewAt(let moment)?: planRenewal(id, at: moment)
        }
    }
}
