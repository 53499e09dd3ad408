import DFLDBus
import Glibc
import SleepAgent
import SleepTimerCore
import SleepTimersAPI

/// Reads the `a{sv}` of a Mirror call into a request, checking that every
/// key is known, present once and of its type. The token is wrapped as soon
/// as it is read.
///
/// The token comes either as `action_token` (a string, simple for scripts)
/// or as `action_token_fd`: a file descriptor (a pipe or a memfd) to read it
/// from, which keeps it out of the message itself, so that nothing watching
/// the bus ever sees it.
enum MirrorArguments {
    private typealias Key = SleepTimers1.MirrorKey

    /// An unknown key is named only when it looks like a key (lower-case
    /// letters, digits and underscores, short), so that a value sent in the
    /// wrong place, a token among them, is never echoed.
    static func quotable(_ key: String) -> String {
        let looksLikeKey = (1...32).contains(key.utf8.count) && key.utf8.first.map { $0 >= 97 && $0 <= 122 } == true
            && key.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
        return looksLikeKey ? "\"\(key)\"" : "(not shown)"
    }

    /// The most bytes read from a token descriptor: one more than the
    /// longest token, so that a longer one is recognised as too long.
    static let tokenReadLimit = ActionToken.lengthRange.upperBound + 1

    /// Reads the token from a pipe, memfd or regular file, without ever
    /// blocking: what the sender has not written before the call is not
    /// waited for. A trailing newline is dropped.
    ///
    /// The descriptor shares its open file, flags included, with the
    /// caller's, so it is never switched to non-blocking: a file is read
    /// with pread, which does not block, and a pipe through an open file of
    /// the agent's own, opened non-blocking from /proc/self/fd.
    static func readToken(from file: UnixFileDescriptor) throws(ServiceError) -> ActionToken {
        var status = stat()
        guard fstat(file.descriptor, &status) == 0,
            status.st_mode & S_IFMT == S_IFIFO || status.st_mode & S_IFMT == S_IFREG
        else {
            throw ServiceError(.invalidArgument, "action_token_fd must be a pipe or a file holding the token.")
        }
        guard fcntl(file.descriptor, F_GETFL) & O_ACCMODE != O_WRONLY else {
            throw ServiceError(.invalidArgument, "action_token_fd is open for writing only; send the end the token can be read from.")
        }
        let seekable = status.st_mode & S_IFMT == S_IFREG
        let descriptor = seekable ? file.descriptor : open("/proc/self/fd/\(file.descriptor)", O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw ServiceError(.invalidArgument, "The pipe in action_token_fd could not be read without waiting on it.")
        }
        defer { if !seekable { close(descriptor) } }
        var bytes = [UInt8](repeating: 0, count: tokenReadLimit)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                seekable ? pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(count))
                    : read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        var end = count
        if end > 0 && bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        let token = ActionToken(unvalidated: String(decoding: bytes[0..<end], as: UTF8.self))
        for index in bytes.indices { bytes[index] = 0 }
        return token
    }

    static func decode(_ value: BusValue) throws(ServiceError) -> MirrorRequest {
        guard let entries = value.vardictEntries else {
            throw ServiceError(.invalidArgument, "\(SleepTimers1.Mirror.name) takes one dictionary of type a{sv}.")
        }
        var strings: [Key: String] = [:]
        var numbers: [Key: Int64] = [:]
        var descriptors: [Key: UnixFileDescriptor] = [:]
        for (name, value) in entries {
            guard let key = Key(rawValue: name) else {
                throw ServiceError(.invalidArgument, "The timer has an unknown key \(quotable(name)); the keys are \(Key.allCases.map(\.name).joined(separator: ", ")).")
            }
            guard strings[key] == nil && numbers[key] == nil && descriptors[key] == nil else {
                throw ServiceError(.invalidArgument, "The timer has the key \(name) twice.")
            }
            switch (key.signature, value) {
            case ("s", .string(let text)): strings[key] = text
            case ("x", .int64(let number)): numbers[key] = number
            case ("h", .unixFD(let file)): descriptors[key] = file
            default:
                throw ServiceError(.invalidArgument, "\(name) must be of D-Bus type \(key.signature), not \(value.signature).")
            }
        }
        for key in Key.allCases where key.isRequired && strings[key] == nil && numbers[key] == nil {
            throw ServiceError(.invalidArgument, "The timer lacks the key \(key.name).")
        }
        let token: ActionToken
        switch (strings[.actionToken], descriptors[.actionTokenFD]) {
        case (let text?, nil):
            token = ActionToken(unvalidated: text)
        case (nil, let file?):
            token = try readToken(from: file)
        default:
            throw ServiceError(.invalidArgument, "The timer needs exactly one of \(Key.actionToken.name) and \(Key.actionTokenFD.name).")
        }
        return MirrorRequest(
            timerID: strings[.timerID]!, apiOrigin: strings[.apiOrigin]!, userID: strings[.userID]!,
            familySubjectID: strings[.familySubjectID]!, babyID: strings[.babyID]!,
            babyName: strings[.babyName]!, activityType: strings[.activityType]!,
            actorMode: strings[.actorMode]!, startedAtMilliseconds: numbers[.startedAt]!,
            timeZone: strings[.timeZone]!, actionToken: token,
            tokenExpiresAtMilliseconds: numbers[.tokenExpiresAt]!, revision: numbers[.revision] ?? 0,
            platformClockOffset: numbers[.platformClockOffset].map { .milliseconds($0) })
    }
}
