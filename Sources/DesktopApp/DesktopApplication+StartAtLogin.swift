import CDFLWebKitGTK
import DesktopAppCore
import Glibc

/// Start at login, the menu's check item: the stateful action
/// `app.start-at-login`, its state read at start from where the desktop
/// keeps the choice and its changes carried out as StartAtLoginRule says.
extension DesktopApplication {
    /// Whether Start at login is on now, as found at start; an "off" found
    /// in one place is carried out in the others (StartAtLoginRule.stepsAtStart).
    func startAtLoginAtStart() -> Bool {
        let sandboxed = place.isSandboxed
        // The sandbox reads no autostart entry: its choice is the app's own.
        let entry = sandboxed ? .missing : StartAtLoginRule.entry(parsing: Self.contents(of: hostEntryPath))
        let masked = Self.isNullLink(loginMaskPath)
        let rememberedOff = g_file_test(paths.startAtLoginOff, DFL_G_FILE_TEST_EXISTS) != 0
        let on = StartAtLoginRule.isOn(sandboxed: sandboxed, entry: entry, loginMasked: masked, rememberedOff: rememberedOff)
        let steps = StartAtLoginRule.stepsAtStart(sandboxed: sandboxed, entry: entry, loginMasked: masked, rememberedOff: rememberedOff)
        let failures = carryOut(steps, on: on)
        if !failures.isEmpty { AppLog.log(.warning, AppLogText.startAtLoginNotChanged(on, failures.joined(separator: "; "))) }
        return on
    }

    /// The action, its state as found; the menu shows it as a check item.
    func addStartAtLoginAction(on: Bool) {
        let action = g_simple_action_new_stateful(StartAtLoginRule.actionName, nil, g_variant_new_boolean(on ? 1 : 0))!
        // Activation without a parameter toggles the state through
        // change-state, whose handler decides whether it changes.
        dfl_connect_pointer(raw(action), "change-state", { action, value, data in
            guard let value, String(cString: g_variant_get_type_string(OpaquePointer(value))) == "b" else { return }
            let on = g_variant_get_boolean(OpaquePointer(value)) != 0
            from(data, as: DesktopApplication.self).chooseStartAtLogin(on, action: OpaquePointer(action))
        }, unretained(self), nil)
        g_action_map_add_action(dfl_g_action_map(application), action)
        g_object_unref(raw(action))
    }

    private func chooseStartAtLogin(_ on: Bool, action: OpaquePointer?) {
        let failures = carryOut(StartAtLoginRule.steps(turningOn: on, sandboxed: place.isSandboxed), on: on)
        if failures.isEmpty {
            g_simple_action_set_state(action, g_variant_new_boolean(on ? 1 : 0))
            AppLog.log(.notice, AppLogText.startAtLoginChosen(on))
        } else {
            AppLog.log(.warning, AppLogText.startAtLoginNotChanged(on, failures.joined(separator: "; ")))
            window?.showNotice(AppText.startAtLoginNotChanged)
        }
    }

    /// Carries the steps out for the choice `on`; what failed, for the log.
    private func carryOut(_ steps: [StartAtLoginRule.Step], on: Bool) -> [String] {
        var failures: [String] = []
        for step in steps {
            switch step {
            case .writeDisablingEntry:
                g_mkdir_with_parents(paths.autostart, 0o700)
                var error: UnsafeMutablePointer<GError>?
                if g_file_set_contents(hostEntryPath, StartAtLoginRule.disablingEntry, -1, &error) == 0 {
                    failures.append(takeGError(error))
                }
            case .removeUserEntry:
                if unlink(hostEntryPath) != 0 && errno != ENOENT { failures.append(Self.errnoText(hostEntryPath)) }
            case .maskLoginStart:
                let path = loginMaskPath
                g_mkdir_with_parents(String(path.prefix(upTo: path.lastIndex(of: "/")!)), 0o700)
                if !Self.isNullLink(path) {
                    unlink(path)
                    if symlink("/dev/null", path) != 0 { failures.append(Self.errnoText(path)) }
                }
            case .unmaskLoginStart:
                // Only the link this makes: a link of the person's own to the unit stays.
                if Self.isNullLink(loginMaskPath) && unlink(loginMaskPath) != 0 { failures.append(Self.errnoText(loginMaskPath)) }
            case .rememberOff(let off):
                rememberOff(off)
            case .askThePortal:
                if case .requestBackground(let commandLine, let autostart)? = sandboxAgent.startAtLoginChosen(on) {
                    requestBackground(commandLine: commandLine, autostart: autostart)
                }
            }
        }
        return failures
    }

    private var hostEntryPath: String { paths.autostart + "/" + StartAtLoginRule.hostEntryName }

    /// The unit's name in the user's graphical-session.target.wants.
    private var loginMaskPath: String {
        paths.userUnits + "/graphical-session.target.wants/" + StartAtLoginRule.unitName
    }

    private func rememberOff(_ off: Bool) {
        if off {
            g_mkdir_with_parents(paths.state, 0o700)
            g_file_set_contents(paths.startAtLoginOff, "", 0, nil)
        } else {
            unlink(paths.startAtLoginOff)
        }
    }

    private static func contents(of path: String) -> String? {
        var contents: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else { return nil }
        defer { g_free(contents) }
        // An entry is small; a huge file is not one the desktop wrote.
        return length <= 64 * 1024 ? String(cString: contents) : ""
    }

    private static func isNullLink(_ path: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        return count == 9 && String(decoding: buffer[0..<9], as: UTF8.self) == "/dev/null"
    }

    private static func errnoText(_ path: String) -> String {
        "\(path): \(String(cString: strerror(errno)))"
    }
}
