import CDFLSQLite

/// A failed SQLite call: the extended result code and SQLite's own message,
/// which names tables and constraints but never a bound value.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32
    public let message: String

    /// The primary result code (SQLITE_CORRUPT, SQLITE_FULL, …).
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String { "\(message) (SQLite code \(code))" }

    /// The file is damaged or is not a database at all.
    public var meansCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
}

/// One SQLite connection, confined to the thread that uses it (SQLite is
/// opened without its own mutexes). Prepared statements are cached by their
/// SQL text: the agent runs the same few statements over and over.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    init(path: String, flags: Int32) throws(SQLiteError) {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteError(code: status, message: message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    private func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// A cached prepared statement, reset and with its bindings cleared.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard status == SQLITE_OK, let prepared else { throw error(status) }
        let statement = SQLiteStatement(handle: prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    /// The single text value of a pragma or query.
    func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.optionalText(0)
    }

    /// The single integer of a query; nil when there is no row or the value
    /// is NULL (as `min` of no rows is).
    func scalarInteger(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.optionalInteger(0)
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    /// False while a transaction is open: after a failed COMMIT, SQLite may
    /// have rolled back by itself, or may still hold the transaction open.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    func setBooleanOption(_ option: Int32, _ value: Bool) throws(SQLiteError) {
        var result: Int32 = 0
        let status = dfl_sqlite3_db_config_bool(handle, option, value ? 1 : 0, &result)
        guard status == SQLITE_OK else { throw error(status) }
    }

    fileprivate func failure(_ status: Int32) -> SQLiteError { error(status) }
}

/// A prepared statement. Values are bound by position, starting at 1.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    fileprivate init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    @discardableResult
    func bind(_ values: SQLiteValue...) throws(SQLiteError) -> SQLiteStatement {
        try bind(values)
    }

    @discardableResult
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> SQLiteStatement {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null:
                status = sqlite3_bind_null(handle, index)
            case .integer(let number):
                status = sqlite3_bind_int64(handle, index, number)
            case .text(let text):
                status = dfl_sqlite3_bind_text_transient(handle, index, text, Int32(text.utf8.count))
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    dfl_sqlite3_bind_blob_transient(handle, index, $0.baseAddress, Int32($0.count))
                }
            }
            guard status == SQLITE_OK else { throw connection.failure(status) }
        }
        return self
    }

    /// Advances; true while there is a row to read.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status:
            let failure = connection.failure(status)
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Runs a statement and reads every row it returns: a query's, or the
    /// RETURNING rows of a write, which are what the write left.
    func rows<Row>(_ read: (SQLiteStatement) -> Row) throws(SQLiteError) -> [Row] {
        defer { reset() }
        var rows: [Row] = []
        while try step() { rows.append(read(self)) }
        return rows
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func optionalInteger(_ column: Int32) -> Int64? { isNull(column) ? nil : integer(column) }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    func blob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

enum SQLiteValue {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}

extension Optional where Wrapped == String {
    var sqlite: SQLiteValue { map { .text($0) } ?? .null }
}

extension Optional where Wrapped == Int64 {
    var sqlite: SQLiteValue { map { .integer($0) } ?? .null }
}

/// A connection and its statements stay on the thread that opened them: the compiler keeps them there.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}
