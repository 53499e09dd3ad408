import DFLDBus
import SleepTimerCore

extension LinkRouteRule.AppFailure {
    /// The bus's answer to the app's Open read in the rule's terms:
    /// ServiceUnknown says that nothing can own the app's name (no app is
    /// installed), LimitsExceeded that the bus refused to start it; any
    /// other error is the app's own.
    init(_ error: BusError) {
        switch error.name {
        case BusError.Names.serviceUnknown: self = .notInstalled
        case BusError.Names.limitsExceeded: self = .refusedByBus(error.message)
        default: self = .failed(error.message)
        }
    }
}
