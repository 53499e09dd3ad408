import DFLDBus
import SleepTimerCore

/// Reads the `a{sv}` of a Mirror call into a request, checking that every
/// key is known, present once and of its type. The token is wrapped as soon
/// as it is read.
enum MirrorArguments {
    private enum Kind: String {
        case string = "s"
        case int64 = "x"
    }

    private static let keys: [(String, Kind, required: Bool)] = [
        ("timer_id", .string, true), ("api_origin", .string, true), ("user_id", .string, true),
        ("family_subject_id", .string, true), ("baby_id", .string, true), ("baby_name", .string, true),
        ("activity_type", .string, true), ("actor_mode", .string, true), ("started_at_ms", .int64, true),
        ("timezone", .string, true), ("action_token", .string, true), ("token_expires_at_ms", .int64, true),
        ("revision", .int64, false),
    ]

    /// An unknown key is named only when it looks like a key (lower-case
    /// letters, digits and underscores, short), so that a value sent in the
    /// wrong place, a token among them, is never echoed.
    static func quotable(_ key: String) -> String {
        let looksLikeKey = (1...32).contains(key.utf8.count) && key.utf8.first.map { $0 >= 97 && $0 <= 122 } == true
            && key.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
        return looksLikeKey ? "\"\(key)\"" : "(not shown)"
    }

    static func decode(_ value: BusValue) throws(ServiceError) -> MirrorRequest {
        guard let entries = value.vardictEntries else {
            throw ServiceError(.invalidArgument, "Mirror takes one dictionary of type a{sv}.")
        }
        var strings: [String: String] = [:]
        var numbers: [String: Int64] = [:]
        for (key, value) in entries {
            guard let (_, kind, _) = keys.first(where: { $0.0 == key }) else {
                throw ServiceError(.invalidArgument, "The timer has an unknown key \(quotable(key)); the keys are \(keys.map(\.0).joined(separator: ", ")).")
            }
            guard strings[key] == nil && numbers[key] == nil else {
                throw ServiceError(.invalidArgument, "The timer has the key \(key) twice.")
            }
            switch (kind, value) {
            case (.string, .string(let text)): strings[key] = text
            case (.int64, .int64(let number)): numbers[key] = number
            default:
                throw ServiceError(.invalidArgument, "\(key) must be of D-Bus type \(kind.rawValue), not \(value.signature).")
            }
        }
        for (key, _, required) in keys where required && strings[key] == nil && numbers[key] == nil {
            throw ServiceError(.invalidArgument, "The timer lacks the key \(key).")
        }
        return MirrorRequest(
            timerID: strings["timer_id"]!, apiOrigin: strings["api_origin"]!, userID: strings["user_id"]!,
            familySubjectID: strings["family_subject_id"]!, babyID: strings["baby_id"]!,
            babyName: strings["baby_name"]!, activityType: strings["activity_type"]!,
            actorMode: strings["actor_mode"]!, startedAtMilliseconds: numbers["started_at_ms"]!,
            timeZone: strings["timezone"]!, actionToken: ActionToken(unvalidated: strings["action_token"]!),
            tokenExpiresAtMilliseconds: numbers["token_expires_at_ms"]!, revision: numbers["revision"] ?? 0)
    }
}
