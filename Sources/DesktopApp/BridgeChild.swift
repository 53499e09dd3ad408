import CDFLWebKitGTK
import DesktopAppCore
import Glibc

/// `dfl-webview-bridge` as the app's child, kept alive while the app runs
/// (so that a mirrored timer's token is renewed all night): each line for
/// it is written to its stdin, each line it writes is handed on. When it
/// ends, the page is told (its client rejects the calls in flight and sends
/// session.set again) and a new bridge starts, at once after a healthy run,
/// later and later if it keeps ending (BridgeRestartMachine).
///
/// Its stderr is the app's: its log lines go where the app's go.
///
/// Used on the GTK main thread only: GIO calls its callbacks there.
final class BridgeChild {
    let program: String
    /// A line the bridge wrote, without its newline.
    var onLine: ([UInt8]) -> Void = { _ in }
    /// The bridge ended; what was in flight gets no answer.
    var onEnded: () -> Void = {}

    private var run: Run?
    private var restart = BridgeRestartMachine()
    private var restartSource: guint = 0

    init(program: String) { self.program = program }

    /// Starts the bridge; on failure it is tried again like a bridge that
    /// ended at once.
    func start() {
        restartSource = 0
        let launcher = g_subprocess_launcher_new(
            GSubprocessFlags(rawValue: DFL_G_SUBPROCESS_FLAGS_STDIN_PIPE.rawValue | DFL_G_SUBPROCESS_FLAGS_STDOUT_PIPE.rawValue))
        defer { g_object_unref(raw(launcher)) }
        var error: UnsafeMutablePointer<GError>?
        guard let process = dfl_subprocess_spawn(launcher, program, &error) else {
            AppLog.log(.error, AppLogText.bridgeCouldNotStart(program, takeGError(error)))
            scheduleRestart(afterRunOf: .zero, how: "not started")
            return
        }
        let run = Run(owner: self, process: process)
        self.run = run
        AppLog.log(.info, AppLogText.bridgeStarted(program, run.identifier))
        run.readNextLine()
        run.waitForExit()
    }

    /// Writes one line (newline included); false when no bridge runs.
    func send(_ line: [UInt8]) -> Bool {
        guard let run, !run.exited else { return false }
        run.write(line)
        return true
    }

    /// At the app's end: the bridge's stdin closes, and it finishes what it
    /// was doing and exits by itself.
    func stop() {
        if restartSource != 0 { g_source_remove(restartSource) }
        restartSource = 0
        run?.closeInput()
        run = nil
    }

    fileprivate func ended(_ ended: Run) {
        guard ended === run else { return }
        run = nil
        let lasted = Duration.microseconds(g_get_monotonic_time() - ended.startedAt)
        scheduleRestart(afterRunOf: lasted, how: ended.howItEnded)
        onEnded()
    }

    private func scheduleRestart(afterRunOf lasted: Duration, how: String) {
        let wait = restart.bridgeEnded(lasting: lasted)
        let delay = Int(wait.wholeMilliseconds)
        AppLog.log(.warning, AppLogText.bridgeEnded(how, wait))
        restartSource = g_timeout_add(guint(delay), { data in
            from(data, as: BridgeChild.self).start()
            return 0
        }, unretained(self))
    }

    /// One run of the bridge: its process, pipes and pending writes. It is
    /// over when the process has exited and its stdout is read to the end,
    /// so that its last lines still reach the page.
    fileprivate final class Run {
        weak var owner: BridgeChild?
        let process: OpaquePointer
        let input: UnsafeMutablePointer<GOutputStream>
        let lines: UnsafeMutablePointer<GDataInputStream>
        let cancellable: UnsafeMutablePointer<GCancellable>
        let startedAt = g_get_monotonic_time()
        var exited = false
        var readToEnd = false
        var howItEnded = "unknown"
        private var queue: [[UInt8]] = []
        private var writing = false

        init(owner: BridgeChild, process: OpaquePointer) {
            self.owner = owner
            self.process = process
            input = g_subprocess_get_stdin_pipe(process)
            lines = g_data_input_stream_new(g_subprocess_get_stdout_pipe(process))
            g_data_input_stream_set_newline_type(lines, G_DATA_STREAM_NEWLINE_TYPE_LF)
            cancellable = g_cancellable_new()
        }

        deinit {
            g_object_unref(lines)
            g_object_unref(cancellable)
            g_object_unref(raw(process))
        }

        var identifier: String {
            g_subprocess_get_identifier(process).map { String(cString: $0) } ?? "?"
        }

        func readNextLine() {
            g_data_input_stream_read_line_async(lines, G_PRIORITY_DEFAULT, cancellable, { _, result, data in
                let run = taken(data, as: Run.self)
                var length: gsize = 0
                var error: UnsafeMutablePointer<GError>?
                let line = g_data_input_stream_read_line_finish(run.lines, result, &length, &error)
                guard let line else {
                    _ = takeGError(error)
                    run.readToEnd = true
                    run.finishIfOver()
                    return
                }
                let bytes = Array(UnsafeRawBufferPointer(start: line, count: Int(length)))
                g_free(line)
                run.owner?.onLine(bytes)
                run.readNextLine()
            }, retained(self))
        }

        func waitForExit() {
            g_subprocess_wait_async(process, nil, { _, result, data in
                let run = taken(data, as: Run.self)
                var error: UnsafeMutablePointer<GError>?
                _ = g_subprocess_wait_finish(run.process, result, &error)
                _ = takeGError(error)
                let process = run.process
                if g_subprocess_get_if_signaled(process) != 0 {
                    run.howItEnded = "signal \(g_subprocess_get_term_sig(process))"
                } else {
                    run.howItEnded = "exit status \(g_subprocess_get_exit_status(process))"
                }
                run.exited = true
                run.finishIfOver()
            }, retained(self))
        }

        private func finishIfOver() {
            guard exited, readToEnd else { return }
            g_cancellable_cancel(cancellable)
            queue = []
            owner?.ended(self)
        }

        func write(_ line: [UInt8]) {
            queue.append(line)
            writeNext()
        }

        /// One write in flight at a time, so that lines never interleave.
        private func writeNext() {
            guard !writing, !exited, !queue.isEmpty else { return }
            writing = true
            let write = Write(run: self, bytes: queue.removeFirst())
            g_output_stream_write_all_async(input, write.buffer, gsize(write.count), G_PRIORITY_DEFAULT, cancellable, { _, result, data in
                let write = taken(data, as: Write.self)
                var written: gsize = 0
                var error: UnsafeMutablePointer<GError>?
                _ = g_output_stream_write_all_finish(write.run.input, result, &written, &error)
                _ = takeGError(error)
                write.run.writing = false
                write.run.writeNext()
            }, retained(write))
        }

        func closeInput() {
            queue = []
            g_output_stream_close(input, nil, nil)
        }
    }

    /// A line being written, kept alive (with its bytes) until the write
    /// completes.
    fileprivate final class Write {
        let run: Run
        let buffer: UnsafeMutableRawPointer
        let count: Int

        init(run: Run, bytes: [UInt8]) {
            self.run = run
            count = bytes.count
            buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: count) }
        }

        deinit { buffer.deallocate() }
    }
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension BridgeChild: Sendable {}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension BridgeChild.Run: Sendable {}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension BridgeChild.Write: Sendable {}
