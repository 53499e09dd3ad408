import DFLDBus
import EventLoop
import Foundation
import Glibc
import GLibParsing
import HTTPClient
import SleepTimerCore
import SleepTimersAPI

/// Everything a benchmark run needs, on this machine and in one temporary
/// directory: a private session bus, the reference platform over TLS, the
/// C floor programs built from source, and the agent binaries under test.
final class BenchEnvironment {
    let root: String
    let repository: String
    let binaries: String
    var environment: [String: String]
    let loop = MainLoop()
    private(set) var connection: BusConnection!
    private(set) var children: [Child] = []
    private(set) var apiOrigin = ""
    private(set) var controlURL = ""
    private(set) var caFile = ""
    private(set) var parent: (id: String, accessToken: String) = ("", "")
    private(set) var http: HTTPClient!

    static let family = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
    static let maya = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21"

    init(repository: String, binaries: String) throws {
        self.repository = repository
        self.binaries = binaries
        var template = Array("/tmp/dfl-bench-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let home = root + "/home"
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home,
            "XDG_RUNTIME_DIR": root + "/runtime", "XDG_CONFIG_DIRS": root + "/etc-xdg", "LANG": "C.UTF-8",
        ]
        for directory in [home, root + "/runtime", root + "/services", root + "/floors"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    func start(_ executable: String, _ arguments: [String] = [], environment extra: [String: String] = [:],
               captureOutput: Bool = false, errorLog: String? = nil) throws -> Child {
        let child = try Child(executable, arguments, environment: environment.merging(extra) { $1 },
                              captureOutput: captureOutput, errorLog: errorLog)
        children.append(child)
        return child
    }

    func close() {
        for child in children.reversed() { child.stop() }
        connection?.close()
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: The bus

    func startBus() throws {
        let config = root + "/bus.conf"
        try """
            <busconfig><type>session</type><listen>unix:path=\(root)/runtime/bus</listen><auth>EXTERNAL</auth>
            <servicedir>\(root)/services</servicedir><policy context="default"><allow send_destination="*"/>
            <allow eavesdrop="true"/><allow own="*"/></policy><limit name="max_replies_per_connection">100000</limit></busconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let bus = try start("/usr/bin/dbus-daemon", ["--config-file=" + config, "--nofork", "--print-address=1"],
                            captureOutput: true)
        guard let address = bus.waitForLines(1, timeout: 30).first else { throw BenchmarkError("dbus-daemon did not start") }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
        connection = try BusConnection(bus: .session, loop: loop)
        try connection.addMatch(
            "type='signal',sender='\(StandardInterface.Bus.name)',member='\(StandardInterface.Bus.nameOwnerChanged)'")
    }

    /// Dispatches (and so drops) every message already queued, so that an
    /// old NameOwnerChanged cannot be taken for a new one.
    func drainMessages() {
        connection.flush()
        while loop.iterate(blocking: false) {}
    }

    /// Runs the loop until `name` has an owner (or has none, with
    /// `present` false); returns the monotonic time it was seen.
    func waitForName(_ name: String, present: Bool = true, timeout: UInt32 = 60_000) throws -> UInt64 {
        var seenAt: UInt64?
        func hasOwner() -> Bool {
            let call = Message.methodCall(destination: StandardInterface.Bus.name, path: StandardInterface.Bus.path,
                                          interface: StandardInterface.Bus.name, member: StandardInterface.Bus.nameHasOwner)
                .append(.string(name))
            return (try? connection.callAndWait(call).arguments().first?.booleanValue) == true
        }
        if hasOwner() == present { return Clock.monotonicNanoseconds() }
        let filter = connection.addSignalFilter { [loop] message in
            guard seenAt == nil, message.member == StandardInterface.Bus.nameOwnerChanged, let arguments = try? message.arguments(),
                arguments.count == 3, arguments[0].stringValue == name
            else { return false }
            if (arguments[2].stringValue?.isEmpty == false) == present {
                seenAt = Clock.monotonicNanoseconds()
                loop.quit()
            }
            return false
        }
        let guardTimer = loop.after(milliseconds: timeout) { [loop] in
            loop.quit()
            return .remove
        }
        loop.run()
        guardTimer.cancel()
        connection.removeSignalFilter(filter)
        guard let seenAt else { throw BenchmarkError("\(name) did not \(present ? "appear" : "go away")") }
        return seenAt
    }

    // MARK: The platform

    func startPlatform() throws {
        let certificates = root + "/certs"
        try runCommand("/bin/sh", [repository + "/scripts/make-test-certs.sh", certificates])
        caFile = certificates + "/ca.pem"
        let ready = root + "/platform.json"
        _ = try start("/usr/bin/env", [
            "python3", repository + "/scripts/reference_platform.py", "--fixtures", "demo", "--tls-cert",
            certificates + "/server.pem", "--tls-key", certificates + "/server.key", "--db", root + "/platform.sqlite3",
            "--ready-file", ready, "--webapp", repository + "/webapp/demo",
        ], errorLog: root + "/platform.log")
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: ready) {
            guard Date() < deadline else { throw BenchmarkError("the reference platform did not start") }
            usleep(20_000)
        }
        let readyLine = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: ready))))
        apiOrigin = readyLine["api"]?.stringValue ?? ""
        controlURL = readyLine["control"]?.stringValue ?? ""
        let users = try JSONParser.parse(try controlGet(controlURL, "/control/users"))
        guard let user = users["users"]?.arrayValue?.first(where: { $0["name"]?.stringValue?.contains("parent") == true }),
            let id = user["id"]?.stringValue, let token = user["accessToken"]?.stringValue
        else { throw BenchmarkError("the demo parent is missing") }
        parent = (id, token)
        var settings = HTTPSettings()
        settings.certificateAuthorities = caFile
        http = HTTPClient(loop: loop, settings: settings)
    }

    /// Starts a Sleep timer on the platform as the parent and returns its id
    /// and the native action token issued for it.
    func platformSleepTimer(startedMinutesAgo: Int = 42) throws -> (id: String, token: String, expiresAt: Int64, startedAt: Int64) {
        let id = UUID().uuidString.lowercased()
        let started = Instant(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000) - Int64(startedMinutesAgo) * 60_000)
        let body = JSONValue.object([
            ("familySubjectId", .string(Self.family)), ("babyId", .string(Self.maya)), ("activityType", .string("sleep")),
            ("startedAt", .string(ISO8601.format(started))), ("timezone", .string("Europe/Berlin")),
            ("details", .object([])), ("note", .null), ("requestNativeActionToken", .bool(true)),
        ]).serialized
        var answer: Result<HTTPResponse, HTTPError>?
        http.send("PUT", origin: try APIOrigin(parsing: apiOrigin), path: "/active-timers/\(id)", body: Array(body.utf8),
                  headers: [("Authorization", "Bearer \(parent.accessToken)")]) { [loop] result in
            answer = result
            loop.quit()
        }
        loop.run()
        guard case .success(let response)? = answer, response.status == 201,
            let document = try? JSONParser.parse(response.body), let token = document["nativeActionToken"]?["token"]?.stringValue,
            let expires = document["nativeActionToken"]?["expiresAt"]?.stringValue.flatMap(GLibISO8601.parse)
        else { throw BenchmarkError("the platform did not start a timer") }
        return (id, token, expires.millisecondsSince1970, started.millisecondsSince1970)
    }

    /// The platform's request log: for each POST, its path and arrival time
    /// (wall clock, ns).
    func platformArrivals() throws -> [(path: String, arrival: Int64)] {
        let log = try JSONParser.parse(try controlGet(controlURL, "/control/requests"))
        return (log["requests"]?.arrayValue ?? []).compactMap { entry in
            guard entry["method"]?.stringValue == "POST", let path = entry["path"]?.stringValue,
                let arrival = entry["arrivalNs"]?.int64Value
            else { return nil }
            return (path, arrival)
        }
    }

    // MARK: Floors

    /// Builds the C floor programs with the system's compiler.
    func buildFloors() throws -> String {
        let flags = try runCommand("/usr/bin/pkg-config", ["--cflags", "--libs", "dbus-1", "libnotify", "sqlite3", "libcurl", "glib-2.0"])
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        for name in ["echo-service", "echo-loop", "idle-process", "sqlite-commit", "curl-post", "notify-show", "notify-boundary"] {
            try runCommand("/usr/bin/env", ["gcc", "-O2", "-o", root + "/floors/" + name,
                                            repository + "/Sources/Benchmarking/floors/\(name).c"] + flags)
        }
        // Preloaded into an agent to split a path into its steps.
        try runCommand("/usr/bin/env", ["gcc", "-O2", "-shared", "-fPIC", "-o", root + "/floors/step-trace.so",
                                        repository + "/Sources/Benchmarking/floors/step-trace.c", "-ldl"])
        return root + "/floors"
    }

    // MARK: The agent

    /// A configuration and state directory of their own for one agent.
    func agentEnvironment(_ name: String, liveElapsed: String = "off", origin: String? = nil) throws -> [String: String] {
        let config = root + "/agents/\(name)/config"
        try FileManager.default.createDirectory(atPath: config + "/dreamsforlittles", withIntermediateDirectories: true)
        try """
            [platform]
            allowed-origins=\(origin ?? apiOrigin)
            ca-file=\(caFile)

            [notifications]
            live-elapsed=\(liveElapsed)

            """.write(toFile: config + "/dreamsforlittles/sleep-agent.conf", atomically: true, encoding: .utf8)
        return ["XDG_CONFIG_HOME": config, "XDG_STATE_HOME": root + "/agents/\(name)/state"]
    }

    func agentStateDirectory(_ environment: [String: String]) -> String {
        environment["XDG_STATE_HOME"]! + "/dreamsforlittles"
    }

    func startAgent(_ agentEnvironment: [String: String], captureLog: Bool = false) throws -> Child {
        try start(binaries + "/dfl-sleep-agent", environment: agentEnvironment,
                  errorLog: captureLog ? nil : root + "/agent.log")
    }

    // MARK: Calls

    static let agentName = SleepTimers1.busName

    /// A call of one of the agent's methods, ready to send.
    static func agentMessage(_ method: any BusMethod.Type, _ arguments: [BusValue] = []) -> Message {
        assert(arguments.map(\.signature).joined() == method.inSignature)
        return Message.methodCall(destination: SleepTimers1.busName, path: SleepTimers1.objectPath,
                                  interface: SleepTimers1.interface, member: method.name).append(contentsOf: arguments)
    }

    func agentCall(_ method: any BusMethod.Type, _ arguments: BusValue...) throws -> [BusValue] {
        do {
            return try connection.callAndWait(Self.agentMessage(method, arguments)).arguments()
        } catch {
            throw BenchmarkError("\(method.name): \(error)")
        }
    }

    /// A Mirror dictionary with the token in a pipe, as the bridge sends it.
    func mirrorArgument(id: String, token: String, startedAt: Int64, expiresAt: Int64, revision: Int64,
                        origin: String? = nil) -> BusValue {
        var descriptors: [Int32] = [-1, -1]
        pipe(&descriptors)
        _ = Array(token.utf8).withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        Glibc.close(descriptors[1])
        let entries: [(SleepTimers1.MirrorKey, BusValue)] = [
            (.timerID, .string(id)), (.apiOrigin, .string(origin ?? apiOrigin)), (.userID, .string(parent.id)),
            (.familySubjectID, .string(Self.family)), (.babyID, .string(Self.maya)), (.babyName, .string("Maya")),
            (.activityType, .string("sleep")), (.actorMode, .string("self")), (.startedAt, .int64(startedAt)),
            (.timeZone, .string("Europe/Berlin")), (.actionTokenFD, .unixFD(UnixFileDescriptor(taking: descriptors[0]))),
            (.tokenExpiresAt, .int64(expiresAt)), (.revision, .int64(revision)),
        ]
        return .vardict(entries.map { ($0.0.name, $0.1) })
    }
}
