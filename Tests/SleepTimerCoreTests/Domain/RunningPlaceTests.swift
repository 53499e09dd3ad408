import SleepTimerCore
import Testing

struct RunningPlaceTests {
    @Test func readsTheApplicationNameOfAFlatpakInfo() {
        let info = """
            [Application]
            name=com.dreamsforlittles.DreamsForLittles
            runtime=runtime/org.gnome.Platform/x86_64/49

            [Instance]
            name=other.name
            """
        #expect(RunningPlace.appID(inFlatpakInfo: info) == "com.dreamsforlittles.DreamsForLittles")
    }

    @Test func takesTheNameOfTheApplicationGroupOnly() {
        let info = "[Instance]\nname=not.the.app\n[Application]\n runtime = x \n name = com.example.Real \n"
        #expect(RunningPlace.appID(inFlatpakInfo: info) == "com.example.Real")
    }

    @Test func saysNothingWhereTheFileNamesNoApplication() {
        #expect(RunningPlace.appID(inFlatpakInfo: "") == nil)
        #expect(RunningPlace.appID(inFlatpakInfo: "[Instance]\nname=x\n") == nil)
        #expect(RunningPlace.appID(inFlatpakInfo: "[Application]\nname=\n") == nil)
    }

    @Test func aNameBeforeAnyGroupIsNotTheApplications() {
        #expect(RunningPlace.appID(inFlatpakInfo: "name=com.example.Stray\n[Instance]\nname=x\n") == nil)
    }

    @Test func onlyTheFlatpakIsSandboxed() {
        #expect(!RunningPlace.host.isSandboxed)
        #expect(RunningPlace.flatpak(appID: "com.dreamsforlittles.DreamsForLittles").isSandboxed)
        #expect(RunningPlace.flatpak(appID: nil).isSandboxed)
    }

    @Test func theTestsRunOnTheHost() {
        // The unit tests never run in a Flatpak; a sandbox would have the file.
        #expect(RunningPlace.current() == .host)
    }
}
