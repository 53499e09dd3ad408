import CDFLCurl

/// One request in flight: its own copy of the body (wiped when done, since
/// it may carry a token), the response as it arrives, and the handle.
final class Transfer {
    let easy: UnsafeMutableRawPointer
    let bodyPointer: UnsafeMutableRawPointer
    let bodyCount: Int
    let limit: Int
    let completion: (Result<HTTPResponse, HTTPError>) -> Void
    var headerList: UnsafeMutablePointer<curl_slist>?
    var response: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var tooLarge = false
    private var finished = false

    init(easy: UnsafeMutableRawPointer, body: [UInt8], limit: Int, completion: @escaping (Result<HTTPResponse, HTTPError>) -> Void) {
        self.easy = easy
        bodyCount = body.count
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, body.count), alignment: 1)
        body.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: body.count) } }
        bodyPointer = copy
        self.limit = limit
        self.completion = completion
    }

    func received(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        guard response.count + count <= limit else {
            tooLarge = true
            return 0
        }
        response.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        return count
    }

    func receivedHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = []  // a new response (after 100 Continue): its own headers
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            var value = line[line.index(after: colon)...]
            while value.first == " " || value.first == "\t" { value = value.dropFirst() }
            while let last = value.last, last == "\r\n" || last == "\n" || last == "\r" || last == " " { value = value.dropLast() }
            if headers.count < 100 { headers.append((name, String(value))) }
        }
        return count
    }

    /// The response code of a finished transfer.
    func responseCode() throws(CurlFailure) -> Int {
        var status = 0
        let code = dfl_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        guard code == CURLE_OK else { throw CurlFailure(call: "curl_easy_getinfo(CURLINFO_RESPONSE_CODE)", code) }
        return status
    }

    func finish() {
        guard !finished else { return }
        finished = true
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        bodyPointer.initializeMemory(as: UInt8.self, repeating: 0, count: bodyCount)
        bodyPointer.deallocate()
    }
}

/// The options of an easy handle, one typed setter per kind of value (as
/// swift-corelibs-foundation wraps curl), each call's result checked: the
/// first option libcurl refuses is named in the error.
struct EasyOptions {
    let easy: UnsafeMutableRawPointer

    func set(_ option: CURLoption, long value: Int) throws(CurlFailure) {
        try check(option, dfl_curl_easy_setopt_long(easy, option, value))
    }

    func set(_ option: CURLoption, string value: String) throws(CurlFailure) {
        try check(option, dfl_curl_easy_setopt_string(easy, option, value))
    }

    func set(_ option: CURLoption, size value: Int) throws(CurlFailure) {
        try check(option, dfl_curl_easy_setopt_off_t(easy, option, curl_off_t(value)))
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlFailure) {
        try check(option, dfl_curl_easy_setopt_pointer(easy, option, value))
    }

    func set(_ option: CURLoption, list value: UnsafeMutablePointer<curl_slist>?) throws(CurlFailure) {
        try check(option, dfl_curl_easy_setopt_slist(easy, option, value))
    }

    func set(_ option: CURLoption, callback value: dfl_curl_data_callback) throws(CurlFailure) {
        try check(option, dfl_curl_easy_setopt_data_callback(easy, option, value))
    }

    private func check(_ option: CURLoption, _ code: CURLcode) throws(CurlFailure) {
        guard code != CURLE_OK else { return }
        // libcurl's own table names the option (CURLOPT_ without its prefix).
        let name = curl_easy_option_by_id(option).flatMap { $0.pointee.name }.map { String(cString: $0) }
        throw CurlFailure(call: "curl_easy_setopt(CURLOPT_\(name ?? String(option.rawValue)))", code)
    }
}

extension CurlFailure {
    init(call: String, _ code: CURLcode) {
        self.init(call: call, code: Int32(bitPattern: code.rawValue), reason: String(cString: curl_easy_strerror(code)))
    }

    init(call: String, _ code: CURLMcode) {
        self.init(call: call, code: code.rawValue, reason: String(cString: curl_multi_strerror(code)))
    }
}
