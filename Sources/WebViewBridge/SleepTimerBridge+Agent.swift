import DFLDBus
import Glibc
import GLibParsing
import SleepTimerCore
import SleepTimersAPI
import StoreLock

/// The agent on the session bus: its methods, and the signals the bridge
/// acts on, believed only from the connection that owns the agent's name
/// and is this installation's agent (`AgentIdentityRule`).
extension SleepTimerBridge {
    /// Listens to the agent: CompletionFinished(created) goes on to the
    /// WebView, so that the app refreshes Home and history at once;
    /// TokenExpiring renews a token; TimerRemoved forgets a timer. Any
    /// connection can send a signal that looks like the agent's, broadcast
    /// or to this connection alone, so each one counts only when its sender
    /// is the name's current owner, followed through NameOwnerChanged, and
    /// that owner is this installation's agent.
    public func start() {
        guard let connection else { return }
        withBusID { _ in }
        let owner = NameOwnerWatch(name: SleepTimers1.busName, connection: connection)
        do {
            try owner.start()
            for signal in [SleepTimers1.CompletionFinished.self, SleepTimers1.TokenExpiring.self,
                           SleepTimers1.TimerRemoved.self] as [any BusSignal.Type] {
                try connection.addMatch(
                    "type='signal',sender='\(SleepTimers1.busName)',path='\(SleepTimers1.objectPath)',interface='\(SleepTimers1.interface)',member='\(signal.name)'")
            }
        } catch {
            log.log(.warning, "The agent's signals cannot be followed (\(error.message)); native completions are not reported.")
            return
        }
        agentOwner = owner
        connection.addSignalFilter { [weak self] message in
            guard let self, message.kind == .signal, message.interface == SleepTimers1.interface,
                message.path == SleepTimers1.objectPath, self.agentOwner?.sent(message) == true,
                case .trust = self.identify(message.sender), let arguments = try? message.arguments()
            else { return false }
            self.agentSaid(message.member ?? "", arguments)
            return false
        }
    }

    /// One signal of the agent's.
    private func agentSaid(_ member: String, _ arguments: [BusValue]) {
        switch (member, arguments.count) {
        case (SleepTimers1.CompletionFinished.name, 3):
            guard let id = arguments[0].stringValue.flatMap(TimerID.init), let outcome = arguments[1].stringValue,
                let activityID = arguments[2].stringValue, mirroredTimers[id] != nil
            else { return }
            guard outcome == SleepTimers1.CompletionOutcome.created.rawValue else { return }
            forget(id)
            notify?(JSONRPCServer.notification(
                "sleepTimer.completedNatively",
                .object([("timerId", .string(id.string)), ("activityId", .string(activityID))])))
        case (SleepTimers1.TokenExpiring.name, 2):
            guard let id = arguments[0].stringValue.flatMap(TimerID.init), let expiresAt = arguments[1].int64Value
            else { return }
            tokenExpiring(id, expiresAt: Instant(millisecondsSince1970: expiresAt))
        case (SleepTimers1.TimerRemoved.name, 2):
            // Completed here is reported by CompletionFinished, which may
            // come after: that one timer stays known until then.
            guard let id = arguments[0].stringValue.flatMap(TimerID.init),
                arguments[1].stringValue != SleepTimers1.RemovalReason.completed.rawValue
            else { return }
            forget(id)
        default:
            return
        }
    }

    /// What the agent's Mirror needs: the timer's display data as the
    /// platform stored it, the token it issued, and its clock's offset.
    struct MirrorData {
        let timerID: TimerID
        let session: Session
        let babyID: BabyID
        let babyName: BabyName
        let startedAt: Instant
        let timeZone: String
        let revision: Int64
        let token: ActionToken
        let expiresAt: Instant
        let clockOffset: Int64?

        /// Nil when the platform's reply holds no usable token, or the name
        /// cannot be shown.
        init?(issuedFor timer: UpsertTimer, session: Session, platform: PlatformTimer) {
            guard let issued = platform.document["nativeActionToken"], let tokenText = issued["token"]?.stringValue,
                let expires = issued["expiresAt"]?.stringValue.flatMap(GLibISO8601.parse), let name = timer.shownName,
                let started = platform.timer["startedAt"]?.stringValue.flatMap(GLibISO8601.parse) ?? GLibISO8601.parse(timer.startedText)
            else { return nil }
            timerID = timer.id
            self.session = session
            babyID = timer.baby
            babyName = name
            startedAt = started
            timeZone = platform.timer["timezone"]?.stringValue ?? timer.zone
            revision = platform.timer["revision"]?.int64Value ?? 0
            token = ActionToken(unvalidated: tokenText)
            expiresAt = expires
            clockOffset = platform.clockOffset
        }
    }

    /// Hands the timer to the agent with the token in a pipe: the token
    /// never travels in a D-Bus message, so nothing watching the bus sees
    /// it. `done` gets nil, or the agent's reason for refusing.
    func mirror(_ data: MirrorData, done: @escaping (String?) -> Void) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return done("a pipe for the token could not be made") }
        let written = data.token.withRevealedValue { value in
            Array(value.utf8).withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) == $0.count }
        }
        close(descriptors[1])
        let reader = UnixFileDescriptor(taking: descriptors[0])
        guard written else { return done("the token could not be handed over") }
        typealias Key = SleepTimers1.MirrorKey
        var entries: [(Key, BusValue)] = [
            (.timerID, .string(data.timerID.string)), (.apiOrigin, .string(data.session.apiOrigin.description)),
            (.userID, .string(data.session.userID.string)), (.familySubjectID, .string(data.session.familySubjectID.string)),
            (.babyID, .string(data.babyID.string)), (.babyName, .string(data.babyName.text)),
            (.activityType, .string(ActivityType.sleep.rawValue)), (.actorMode, .string(data.session.actorMode.rawValue)),
            (.startedAt, .int64(data.startedAt.millisecondsSince1970)), (.timeZone, .string(data.timeZone)),
            (.actionTokenFD, .unixFD(reader)), (.tokenExpiresAt, .int64(data.expiresAt.millisecondsSince1970)),
            (.revision, .int64(data.revision)),
        ]
        if let offset = data.clockOffset { entries.append((.platformClockOffset, .int64(offset))) }
        callAgent(SleepTimers1.Mirror.self, [.vardict(entries.map { ($0.0.name, $0.1) })]) { result in
            switch result {
            case .success: done(nil)
            case .failure(let error): done(error.message)
            }
        }
    }

    /// How many timers the agent purged, or nil when it could not be asked.
    func purge(_ scope: BridgeSessionMachine.PurgeScope, done: @escaping (UInt32?) -> Void) {
        callAgent(SleepTimers1.Purge.self, [.string(scope.apiOrigin.description), .string(scope.userID.string), .string("")]) { result in
            switch result {
            case .success(let values): done(values.first?.uint32Value ?? 0)
            case .failure: done(nil)
            }
        }
    }

    /// The agent's version when `wanted` and the agent answers, else nil
    /// (without asking).
    func agentVersion(if wanted: Bool, _ done: @escaping (String?) -> Void) {
        guard wanted else { return done(nil) }
        agentVersion(done)
    }

    /// The version of this installation's agent when it answers on the
    /// session bus, else nil: another program at the agent's name is no
    /// agent of ours, and no token is asked for it.
    func agentVersion(_ done: @escaping (String?) -> Void) {
        guard let connection else { return done(nil) }
        ownAgent { found in
            guard case .success(let agent) = found else { return done(nil) }
            let call = Message.methodCall(
                destination: agent, path: SleepTimers1.objectPath,
                interface: StandardInterface.Properties.name, member: StandardInterface.Properties.get
            ).append(.string(SleepTimers1.interface), .string(SleepTimers1.Property.version.name))
            connection.call(call, timeout: BusCall.agentQuestion) { result in
                done((try? result.get().arguments())?.first?.unwrapped.stringValue)
            }
        }
    }

    /// Calls the agent of this installation, at its unique name, and only
    /// once `AgentIdentityRule` trusts the owner of the agent's name: every
    /// call that carries a token or clears timers comes here. A refusal is
    /// logged with its reason and answered as an agent that is not there.
    func callAgent(_ method: any BusMethod.Type, _ arguments: [BusValue],
                   done: @escaping (Result<[BusValue], BusError>) -> Void) {
        assert(arguments.map(\.signature).joined() == method.inSignature)
        guard let connection else {
            return done(.failure(BusError(name: BusError.Names.serviceUnknown, message: "There is no session bus.")))
        }
        ownAgent { [weak self] found in
            guard self != nil else { return }
            switch found {
            case .failure(let error):
                done(.failure(error))
            case .success(let agent):
                let call = Message.methodCall(destination: agent, path: SleepTimers1.objectPath,
                                              interface: SleepTimers1.interface, member: method.name)
                    .append(contentsOf: arguments)
                connection.call(call, timeout: BusCall.waitedOn) { result in
                    switch result {
                    case .success(let reply):
                        done(Result { () throws(BusError) -> [BusValue] in try reply.arguments() })
                    case .failure(let error):
                        done(.failure(error))
                    }
                }
            }
        }
    }

    /// The unique name of this installation's agent, or why there is none
    /// to call. A Ping to the well-known name (which starts the agent, as
    /// any call does) is answered by its owner, and the reply's sender,
    /// which the bus daemon sets, is that owner's unique name.
    private func ownAgent(_ done: @escaping (Result<String, BusError>) -> Void) {
        guard let connection else {
            return done(.failure(BusError(name: BusError.Names.serviceUnknown, message: "There is no session bus.")))
        }
        withBusID { [weak self] _ in
            let ping = Message.methodCall(destination: SleepTimers1.busName, path: SleepTimers1.objectPath,
                                          interface: StandardInterface.Peer.name, member: StandardInterface.Peer.ping)
            connection.call(ping, timeout: BusCall.waitedOn) { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let error):
                    done(.failure(error))
                case .success(let reply):
                    switch self.identify(reply.sender) {
                    case .trust(let uniqueName):
                        done(.success(uniqueName))
                    case .refuse(let reason):
                        self.log.log(.warning, "Nothing is handed to the program at \(SleepTimers1.busName): \(reason).")
                        done(.failure(BusError(
                            name: BusError.Names.serviceUnknown,
                            message: "The program that owns the agent's name is not this installation's agent.")))
                    }
                }
            }
        }
    }

    /// Whether `sender` (an owner of the agent's name, as the bus said) is
    /// this installation's agent, from its published name.
    func identify(_ sender: String?) -> AgentIdentityRule.Decision {
        let published: AgentIdentityRule.Published
        switch agentStateDirectory.map({ PublishedAgentName.read(inDirectory: $0) }) ?? .missing {
        case .published(let entry): published = .name(busID: entry.busID, uniqueName: entry.uniqueName)
        case .missing: published = .missing
        case .unusable(let reason): published = .unusable(reason: reason)
        }
        return AgentIdentityRule.decide(owner: sender, busID: busID, published: published)
    }

    /// The bus's id, asked once; nil when the bus does not say.
    private func withBusID(_ done: @escaping (String?) -> Void) {
        if let busID { return done(busID) }
        guard let connection else { return done(nil) }
        let bus = StandardInterface.Bus.self
        let question = Message.methodCall(destination: bus.name, path: bus.path, interface: bus.name, member: bus.getID)
        connection.call(question) { [weak self] result in
            guard let self else { return }
            if self.busID == nil, let id = (try? result.get().arguments())?.first?.stringValue, !id.isEmpty {
                self.busID = id
            }
            done(self.busID)
        }
    }
}
