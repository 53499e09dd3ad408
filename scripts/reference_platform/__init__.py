"""Reference platform for the Dreams for Littles Linux desktop bridge.

A contract-faithful implementation of the platform API endpoints the bridge uses:
active timers (upsert, stop, discard, summary), the app's activity Save, and the
public native Sleep completion endpoint guarded by one-time action tokens.  State
lives in SQLite, so a restart with --db keeps every timer, token and activity.

A second, plain-HTTP listener on loopback serves the control API used by tests and
the demo: fixtures, access tokens of simulated users, state inspection, the request
log and fault injection.  This server exists for tests and the demo only.

Python 3.11+ standard library only.  The contract is documented in
docs/platform-contract.md.  One module per concern:

    routes.py       the API's paths and methods: add an endpoint here
    timers.py       active timers: upsert, stop, discard, summary
    activities.py   the app's activity Save
    completion.py   the native Sleep completion endpoint
    tokens.py       native action tokens: issue, check, replay, expire
    access.py       access tokens of simulated users, and who may act for a family
    fixtures.py     users, families and babies (the demo family built in)
    faults.py       injected faults (latency, status codes, dropped replies...)
    request_log.py  the log of API requests the tests inspect
    admin.py        the loopback control API over the pieces above
    handlers.py     HTTP: reading bodies, dispatching, writing replies
    server.py       command line, TLS, the two listeners, shutdown
    state.py        the platform's state: store, secret, token lifetime
    store.py        the SQLite schema, transactions, rows as JSON
    fields.py       typed reads of request JSON with errors naming the field
    messages.py     ApiRequest, Reply and ApiError: what an operation gets and answers
    common.py       times, ids, JSON, base64url and the log line

    python3 scripts/reference_platform.py --fixtures demo
    python3 scripts/reference_platform.py --tls-cert server.pem --tls-key server.key --db state.sqlite
"""
