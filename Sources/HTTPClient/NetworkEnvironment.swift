import Glibc
import SleepTimerCore

/// The environment variables that would, unasked, change where libcurl
/// sends a request or what it writes down: the proxy variables, which hand
/// a request (an action token in it, over plain http) to whatever they
/// name, and SSLKEYLOGFILE, which makes libcurl write the TLS secrets that
/// decrypt a capture of the token's or the bearer token's traffic. Any
/// process of the user can set them for the whole session (in the user
/// manager's environment), so the agent and the bridge remove them from
/// their own environment before libcurl starts: its proxy comes from
/// `[platform] proxy=` alone.
public enum NetworkEnvironment {
    /// Both spellings of each, although libcurl reads only some of them
    /// (never HTTP_PROXY, for one): a library it loads might read another.
    public static let ignoredVariables = [
        "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
        "ftp_proxy", "FTP_PROXY", "no_proxy", "NO_PROXY", "SSLKEYLOGFILE",
    ]

    /// Removes the variables from this process's environment; to be called
    /// first thing, while the process has one thread and before libcurl
    /// reads SSLKEYLOGFILE at its global initialisation. Logs the names
    /// that were set (never their values, which may hold a password).
    public static func clear(log: any LogSink) {
        let present = ignoredVariables.filter { getenv($0) != nil }
        for name in present { unsetenv(name) }
        guard !present.isEmpty else { return }
        log.log(
            .notice,
            "Ignored \(present.joined(separator: ", ")) from the environment: the platform is reached through the proxy of [platform] proxy= in \(Configuration.relativePath) or none, and no TLS key log is written."
        )
    }
}
