// A process the store tests start and kill with SIGKILL at chosen moments,
// since a test cannot safely fork itself. It prints a line on stdout at each
// moment the parent waits for.
import DFLTestSupport
import Glibc
import SleepTimerCore
import SleepTimerStore

/// Writes straight to a descriptor: unbuffered, so the parent sees the line
/// before the process is killed.
func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    bytes.append(UInt8(ascii: "\n"))
    _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
}

func say(_ line: String) { write(line, to: 1) }

func waitForKill() -> Never {
    while true { pause() }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    write("usage: store-crash-child MODE DIRECTORY", to: 2)
    exit(64)
}
let mode = arguments[1]
if mode == "umask-create" { umask(0) }

let scope = Fixtures.scope
let now = SystemClock().now()

func timer(_ index: Int) -> MirroredTimer {
    MirroredTimer(
        id: Fixtures.timerID(index), scope: scope, babyID: Fixtures.baby, babyName: try! BabyName(validating: "Baby \(index)"),
        startedAt: now.adding(milliseconds: -60_000), timeZone: TimeZoneName("Europe/Berlin")!, revision: 1,
        token: ActionToken(unvalidated: "dflnat_crash_child_token_\(index)"),
        tokenExpiresAt: now.adding(milliseconds: 12 * Milliseconds.hour))
}

do {
    let store = try SleepTimerStore(location: StoreLocation(directory: arguments[2]), log: SilentLog())
    switch mode {
    case "populate":
        for index in 1...20 { _ = try store.upsert(timer(index)) }
        _ = try store.recordCompletion(of: timer(1).id, completedAt: now, now: now)
        say("populated")
    case "purge-hold":
        store.beforeCommit = {
            say("in-transaction")
            waitForKill()
        }
        _ = try store.purge(apiOrigin: scope.apiOrigin, userID: scope.userID, familySubjectID: nil)
    case "purge-race":
        store.beforeCommit = { say("committing") }
        _ = try store.purge(apiOrigin: scope.apiOrigin, userID: scope.userID, familySubjectID: nil)
        say("committed")
        waitForKill()
    case "complete-hold":
        store.beforeCommit = {
            say("in-transaction")
            waitForKill()
        }
        _ = try store.recordCompletion(of: timer(2).id, completedAt: now, now: now)
    case "finish-race":
        store.beforeCommit = { say("committing") }
        _ = try store.finishCompletion(of: timer(1).id)
        say("committed")
        waitForKill()
    case "umask-create":
        _ = try store.upsert(timer(1))
        _ = try store.recordCompletion(of: timer(1).id, completedAt: now, now: now)
        say("created")
        waitForKill()
    default:
        write("unknown mode \(mode)", to: 2)
        exit(64)
    }
} catch {
    write("store-crash-child: \(error)", to: 2)
    exit(1)
}
