/// TOML 1.0's strings, numbers and dates, read from the parser's current byte.
extension TOMLParser {
    // MARK: - Strings

    /// `"…"` with escapes; no line breaks or control characters inside.
    mutating func parseBasicString() throws(TOMLSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = current, c != UInt8(ascii: "\n") else { throw error("the string is not closed with '\"' on its line") }
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try appendEscape(to: &out)
            default:
                if Self.isControl(c) { throw error("a string cannot contain \(shownCurrent); write it as an escape") }
                out.append(c)
                i += 1
            }
        }
    }

    /// `"""…"""`: a line break right after the opening quotes is dropped; a backslash at the end
    /// of a line drops it and the blanks and line breaks that follow.
    mutating func parseMultilineBasicString() throws(TOMLSyntaxError) -> String {
        i += 3
        if current == UInt8(ascii: "\n") { newline() }
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw error("the multi-line string is not closed with '\"\"\"'") }
            switch c {
            case UInt8(ascii: "\""):
                if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
                    // Up to two more quotes belong to the content: `""""` ends with one.
                    var extra = 0
                    while extra < 2, peek(3 + extra) == UInt8(ascii: "\"") { extra += 1 }
                    out.append(contentsOf: repeatElement(UInt8(ascii: "\""), count: extra))
                    i += 3 + extra
                    return String(decoding: out, as: UTF8.self)
                }
                out.append(c)
                i += 1
            case UInt8(ascii: "\\"):
                // A line-ending backslash: blanks, then a line break, then everything blank.
                var k = i + 1
                while k < b.count, b[k] == UInt8(ascii: " ") || b[k] == UInt8(ascii: "\t") { k += 1 }
                if k < b.count, b[k] == UInt8(ascii: "\n") {
                    i = k
                    while let d = current, d == UInt8(ascii: " ") || d == UInt8(ascii: "\t") || d == UInt8(ascii: "\n") {
                        if d == UInt8(ascii: "\n") { newline() } else { i += 1 }
                    }
                } else {
                    try appendEscape(to: &out)
                }
            case UInt8(ascii: "\n"):
                out.append(c)
                newline()
            default:
                if Self.isControl(c) { throw error("a string cannot contain \(shownCurrent); write it as an escape") }
                out.append(c)
                i += 1
            }
        }
    }

    /// `'…'`: no escapes, no line breaks, no control characters but tab.
    mutating func parseLiteralString() throws(TOMLSyntaxError) -> String {
        i += 1
        let start = i
        while true {
            guard let c = current, c != UInt8(ascii: "\n") else { throw error("the string is not closed with \"'\" on its line") }
            if c == UInt8(ascii: "'") {
                let text = String(decoding: b[start..<i], as: UTF8.self)
                i += 1
                return text
            }
            if Self.isControl(c) { throw error("a literal string cannot contain \(shownCurrent)") }
            i += 1
        }
    }

    /// `'''…'''`: as written, line breaks included; a line break right after the opening quotes is dropped.
    mutating func parseMultilineLiteralString() throws(TOMLSyntaxError) -> String {
        i += 3
        if current == UInt8(ascii: "\n") { newline() }
        let start = i
        while true {
            guard let c = current else { throw error("the multi-line string is not closed with \"'''\"") }
            if c == UInt8(ascii: "'"), peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") {
                var extra = 0
                while extra < 2, peek(3 + extra) == UInt8(ascii: "'") { extra += 1 }
                let text = String(decoding: b[start..<(i + extra)], as: UTF8.self)
                i += 3 + extra
                return text
            }
            if c == UInt8(ascii: "\n") {
                newline()
                continue
            }
            if Self.isControl(c) { throw error("a literal string cannot contain \(shownCurrent)") }
            i += 1
        }
    }

    /// At a backslash: TOML 1.0's escapes (\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX).
    mutating func appendEscape(to out: inout [UInt8]) throws(TOMLSyntaxError) {
        let start = here()
        i += 1
        guard let c = current else { throw error("the string ends inside an escape") }
        let simple: UInt8?
        switch c {
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "e"): simple = 0x1B  // TOML 1.1's escape for ESC (toml-test takes it)
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "u"), UInt8(ascii: "U"): simple = nil
        default:
            throw error("unknown escape \\\(shownCurrent.trimmingQuotes) (TOML has \\b \\e \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", at: start)
        }
        if let simple {
            out.append(simple)
            i += 1
            return
        }
        let digits = c == UInt8(ascii: "u") ? 4 : 8
        i += 1
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let d = current, let h = Self.hexValue(d) else {
                throw error("\\\(c == UInt8(ascii: "u") ? "u" : "U") needs \(digits) hexadecimal digits", at: start)
            }
            value = value << 4 | UInt32(h)
            i += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("\\\(c == UInt8(ascii: "u") ? "u" : "U")\(String(value, radix: 16, uppercase: true)) is not a Unicode scalar value", at: start)
        }
        out.append(contentsOf: Array(String(scalar).utf8))
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func isDigit(_ c: UInt8?) -> Bool {
        guard let c else { return false }
        return c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }

    // MARK: - Numbers and dates

    /// A date or time when it starts like one (`1979-05-27`, `07:32:00`), else a number.
    mutating func parseNumberOrDateTime() throws(TOMLSyntaxError) -> TOMLValue {
        if Self.isDigit(current), Self.isDigit(peek(1)) {
            if peek(2) == UInt8(ascii: ":") { return .dateTime(try parseDateTime()) }
            if Self.isDigit(peek(2)), Self.isDigit(peek(3)), peek(4) == UInt8(ascii: "-") { return .dateTime(try parseDateTime()) }
        }
        return try parseNumber()
    }

    /// Integers (decimal, 0x, 0o, 0b; underscores between digits) and floats (fraction and/or
    /// exponent, inf, nan), each with TOML's rules on signs and leading zeros.
    mutating func parseNumber() throws(TOMLSyntaxError) -> TOMLValue {
        let startPosition = here()
        let start = i
        while let c = current, Self.isNumberByte(c) { i += 1 }
        let token = Array(b[start..<i])
        guard !token.isEmpty else {
            throw error("expected a value (true, false, a number, a string, a date, [ or {), found \(shownCurrent)")
        }
        let text = String(decoding: token, as: UTF8.self)
        let bad = TOMLSyntaxError(position: startPosition, message: "`\(text)` is not a TOML value (a number, a string, true or false, a date, [ or {)")

        var body = token[...]
        var negative = false
        var signed = false
        if let first = body.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            signed = true
            body = body.dropFirst()
        }
        let bodyText = String(decoding: body, as: UTF8.self)
        if bodyText == "inf" { return .float(negative ? -.infinity : .infinity) }
        if bodyText == "nan" { return .float(negative ? -.nan : .nan) }

        // Prefixed integers: no sign, lowercase prefix, digits of the base.
        if body.count > 2, body.first == UInt8(ascii: "0"),
           let radix = [UInt8(ascii: "x"): 16, UInt8(ascii: "o"): 8, UInt8(ascii: "b"): 2][body[body.startIndex + 1]] {
            guard !signed else { throw bad }
            let digits = body.dropFirst(2)
            guard Self.underscoresBetweenDigits(digits, radix: radix) else { throw bad }
            let clean = String(decoding: digits.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
            guard let value = Int(clean, radix: radix) else {
                throw TOMLSyntaxError(position: startPosition, message: "`\(text)` does not fit in a 64-bit integer")
            }
            return .integer(value)
        }

        // Decimal: integer part, then an optional fraction and exponent.
        var k = body.startIndex
        func digitsRun() -> Range<Int> {
            let runStart = k
            while k < body.endIndex, Self.isDigit(body[k]) || body[k] == UInt8(ascii: "_") { k += 1 }
            return runStart..<k
        }
        let integerPart = digitsRun()
        guard !integerPart.isEmpty, Self.underscoresBetweenDigits(body[integerPart], radix: 10) else { throw bad }
        if body[integerPart].count > 1 && body[integerPart.lowerBound] == UInt8(ascii: "0") {
            throw TOMLSyntaxError(position: startPosition, message: "`\(text)`: a decimal number cannot start with 0 (write 0x, 0o or 0b for other bases)")
        }
        var isFloat = false
        if k < body.endIndex, body[k] == UInt8(ascii: ".") {
            k += 1
            let fraction = digitsRun()
            guard !fraction.isEmpty, Self.underscoresBetweenDigits(body[fraction], radix: 10) else { throw bad }
            isFloat = true
        }
        if k < body.endIndex, body[k] == UInt8(ascii: "e") || body[k] == UInt8(ascii: "E") {
            k += 1
            if k < body.endIndex, body[k] == UInt8(ascii: "+") || body[k] == UInt8(ascii: "-") { k += 1 }
            let exponent = digitsRun()
            guard !exponent.isEmpty, Self.underscoresBetweenDigits(body[exponent], radix: 10) else { throw bad }
            isFloat = true
        }
        guard k == body.endIndex else { throw bad }
        let clean = String(decoding: token.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        if isFloat {
            guard let value = Double(clean) else { throw bad }
            return .float(value)
        }
        guard let value = Int(clean) else {
            throw TOMLSyntaxError(position: startPosition, message: "`\(text)` does not fit in a 64-bit integer")
        }
        return .integer(value)
    }

    static func isNumberByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// Digits of `radix`, non-empty, each underscore between two digits.
    static func underscoresBetweenDigits(_ digits: ArraySlice<UInt8>, radix: Int) -> Bool {
        guard let first = digits.first, let last = digits.last, first != UInt8(ascii: "_"), last != UInt8(ascii: "_") else {
            return false
        }
        var previousUnderscore = false
        for c in digits {
            if c == UInt8(ascii: "_") {
                if previousUnderscore { return false }
                previousUnderscore = true
                continue
            }
            previousUnderscore = false
            guard let v = hexValue(c), Int(v) < radix else { return false }
        }
        return true
    }

    // MARK: Dates and times (RFC 3339 as TOML takes it)

    mutating func parseDateTime() throws(TOMLSyntaxError) -> TOMLDateTime {
        let start = here()
        var result = TOMLDateTime()
        if peek(2) == UInt8(ascii: ":") {
            result.time = try parseTime(start: start)
            return result
        }
        let year = try fixedDigits(4, start: start)
        try expect(UInt8(ascii: "-"), start: start)
        let month = try fixedDigits(2, start: start)
        try expect(UInt8(ascii: "-"), start: start)
        let day = try fixedDigits(2, start: start)
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else {
            throw error("\(text(from: start)) is not a date of the calendar", at: start)
        }
        result.date = TOMLDateTime.Date(year: year, month: month, day: day)
        // The time follows a T (either case), or a space when a time really follows.
        let separator = current
        if separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
            || (separator == UInt8(ascii: " ") && Self.isDigit(peek(1)) && Self.isDigit(peek(2)) && peek(3) == UInt8(ascii: ":")) {
            i += 1
            result.time = try parseTime(start: start)
            if current == UInt8(ascii: "Z") || current == UInt8(ascii: "z") {
                i += 1
                result.offsetMinutes = 0
            } else if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                let sign = current == UInt8(ascii: "-") ? -1 : 1
                i += 1
                let hours = try fixedDigits(2, start: start)
                try expect(UInt8(ascii: ":"), start: start)
                let minutes = try fixedDigits(2, start: start)
                guard hours <= 23, minutes <= 59 else { throw error("\(text(from: start)) has an impossible offset", at: start) }
                result.offsetMinutes = sign * (hours * 60 + minutes)
            }
        }
        if let c = current, Self.isNumberByte(c) || c == UInt8(ascii: ":") {
            throw error("\(text(from: start)) is not a date or time (RFC 3339, like 1979-05-27T07:32:00Z)", at: start)
        }
        return result
    }

    mutating func parseTime(start: TOMLPosition) throws(TOMLSyntaxError) -> TOMLDateTime.Time {
        let hour = try fixedDigits(2, start: start)
        try expect(UInt8(ascii: ":"), start: start)
        let minute = try fixedDigits(2, start: start)
        try expect(UInt8(ascii: ":"), start: start)
        let second = try fixedDigits(2, start: start)
        guard hour <= 23, minute <= 59, second <= 59 else {
            throw error("\(text(from: start)) is not a time of day", at: start)
        }
        var nanosecond = 0
        if current == UInt8(ascii: ".") {
            i += 1
            guard Self.isDigit(current) else { throw error("\(text(from: start)): a decimal point needs digits after it", at: start) }
            var count = 0
            while let c = current, Self.isDigit(c) {
                if count < 9 { nanosecond = nanosecond * 10 + Int(c - UInt8(ascii: "0")) }
                count += 1
                i += 1
            }
            for _ in count..<max(count, 9) { nanosecond *= 10 }
        }
        return TOMLDateTime.Time(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    mutating func fixedDigits(_ count: Int, start: TOMLPosition) throws(TOMLSyntaxError) -> Int {
        var value = 0
        for _ in 0..<count {
            guard let c = current, Self.isDigit(c) else {
                throw error("\(text(from: start)) is not a date or time (RFC 3339, like 1979-05-27T07:32:00Z)", at: start)
            }
            value = value * 10 + Int(c - UInt8(ascii: "0"))
            i += 1
        }
        return value
    }

    mutating func expect(_ byte: UInt8, start: TOMLPosition) throws(TOMLSyntaxError) {
        guard current == byte else {
            throw error("\(text(from: start)) is not a date or time (RFC 3339, like 1979-05-27T07:32:00Z)", at: start)
        }
        i += 1
    }

    /// The value's text from `start` (on the current line) to the next blank, for messages.
    mutating func text(from start: TOMLPosition) -> String {
        var k = lineStart
        var column = 1
        while k < b.count, column < start.column {
            if b[k] & 0xC0 != 0x80 { column += 1 }
            k += 1
        }
        var end = k
        while end < b.count, end - k < 40, b[end] != UInt8(ascii: " "), b[end] != UInt8(ascii: "\n"), b[end] != UInt8(ascii: ","),
              b[end] != UInt8(ascii: "]"), b[end] != UInt8(ascii: "}"), b[end] != UInt8(ascii: "#") {
            end += 1
        }
        return "`\(String(decoding: b[k..<end], as: UTF8.self))`"
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension String {
    /// `'x'` → `x` (for messages that put their own quotes around a character).
    var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
