import Glibc
import Testing
@testable import EventLoop

/// The loop is GLib's default context, shared by the whole process, so these
/// tests run one at a time. Signal sources are tested on the real agent
/// (SIGTERM and SIGINT in the integration tests): the test runner's own
/// threads make signal delivery in this process unpredictable.
@Suite(.serialized) struct MainLoopTests {
    @Test func aTimeoutFiresAndCanRepeatUntilRemoved() {
        let loop = MainLoop()
        var fired = 0
        loop.after(milliseconds: 1) {
            fired += 1
            if fired == 3 {
                loop.quit()
                return .remove
            }
            return .keep
        }
        loop.run()
        #expect(fired == 3)
    }

    @Test func aCancelledSourceNeverRuns() {
        let loop = MainLoop()
        var ran = false
        let source = loop.after(milliseconds: 1) {
            ran = true
            return .remove
        }
        source.cancel()
        loop.after(milliseconds: 5) {
            loop.quit()
            return .remove
        }
        loop.run()
        #expect(!ran)
    }

    @Test func aReadableDescriptorWakesTheLoop() {
        let loop = MainLoop()
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        var received: [UInt8] = []
        loop.watch(descriptor: descriptors[0], for: .readable) { events in
            #expect(events.contains(.readable))
            var byte: UInt8 = 0
            _ = read(descriptors[0], &byte, 1)
            received.append(byte)
            loop.quit()
            return .remove
        }
        loop.soon {
            var byte: UInt8 = 42
            _ = write(descriptors[1], &byte, 1)
        }
        loop.run()
        #expect(received == [42])
    }

    @Test func spawnRunsAnArgumentVectorWithoutAShell() throws {
        let marker = "/tmp/dfl-spawn-test-\(getpid())"
        defer { unlink(marker) }
        // A shell would expand the $ and the ;, an argument vector does not.
        try MainLoop.spawn(["/usr/bin/touch", marker + "$HOME;x"], environment: [:])
        var status = stat()
        var found = false
        for _ in 0..<2000 where !found {
            found = stat(marker + "$HOME;x", &status) == 0
            if !found { usleep(1000) }
        }
        #expect(found)
        unlink(marker + "$HOME;x")
        #expect(throws: SpawnError.self) { try MainLoop.spawn(["/nonexistent/program"], environment: [:]) }
    }
}

@Suite struct BellTests {
    @Test func aRingFromAnotherThreadRunsTheHandlerOnTheLoop() throws {
        let loop = MainLoop()
        var runs = 0
        let bell = try Bell(on: loop) { runs += 1 }
        let ringer = bell.ringer
        var thread = pthread_t()
        let box = Unmanaged.passRetained(RingerBox(ringer)).toOpaque()
        #expect(pthread_create(&thread, nil, { argument in
            let box = Unmanaged<RingerBox>.fromOpaque(argument!).takeRetainedValue()
            box.ringer.ring()
            box.ringer.ring()
            return nil
        }, box) == 0)
        pthread_join(thread, nil)
        loop.iterate(blocking: true)
        // Two rings before the loop ran are one run.
        #expect(runs == 1)
    }
}

private final class RingerBox {
    let ringer: Bell.Ringer
    init(_ ringer: Bell.Ringer) { self.ringer = ringer }
}
