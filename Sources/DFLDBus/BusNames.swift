/// The bus's interface names come with DFLDBus, so that every user of the
/// connection names them the same way; the app, which talks to the bus
/// through GIO and not libdbus, imports BusNames alone.
@_exported import BusNames
