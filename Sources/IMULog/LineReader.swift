import Foundation

/// The lines of a file, read in chunks so that a 100 MB log never sits in memory as one String.
/// Accepts `\n` and `\r\n` endings, and says whether each line had its ending (a recording cut
/// off by a power loss ends with a line that has none).
final class LineReader {
    struct Line {
        var text: String
        /// 1-based.
        var number: Int
        /// false only for a last line without a newline.
        var terminated: Bool
    }

    /// A line longer than the reader takes (a log row is a few hundred bytes; a file that is
    /// one long line is not a log and must not be read into memory whole).
    struct LineTooLong: Error {
        var line: Int
        var limit: Int
    }

    /// The longest line handed out, in bytes.
    static let maximumLineBytes = 64 << 10

    private let handle: FileHandle?
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd: Bool
    private var number = 0
    /// In-memory bytes still to be handed over chunk by chunk (the text initialiser's test path).
    private var pending: [UInt8] = []

    init(path: String, chunkSize: Int = 1 << 16) throws {
        handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        self.chunkSize = max(1, chunkSize)
        atEnd = false
    }

    /// Text already in memory (tests, small inputs). `chunkSize` > 0 feeds it through the same
    /// chunked path a file takes, so tests can put line breaks across chunk boundaries.
    init(text: String, chunkSize: Int = 0) {
        handle = nil
        if chunkSize > 0 {
            pending = Array(text.utf8)
            self.chunkSize = chunkSize
            atEnd = false
        } else {
            buffer = Array(text.utf8)
            self.chunkSize = 1
            atEnd = true
        }
    }

    deinit { try? handle?.close() }

    /// The next line, or nil at the end of the file.
    func next() throws -> Line? {
        var searchFrom = start
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                if newline - start > Self.maximumLineBytes { throw LineTooLong(line: number + 1, limit: Self.maximumLineBytes) }
                let line = makeLine(upTo: newline, terminated: true)
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                if buffer.count - start > Self.maximumLineBytes { throw LineTooLong(line: number + 1, limit: Self.maximumLineBytes) }
                let line = makeLine(upTo: buffer.count, terminated: false)
                start = buffer.count
                return line
            }
            // Keep the unfinished line, drop what was already handed out, and read more; the
            // kept part has no newline, so the search resumes where the new bytes begin.
            buffer.removeFirst(start)
            start = 0
            searchFrom = buffer.count
            if buffer.count > Self.maximumLineBytes { throw LineTooLong(line: number + 1, limit: Self.maximumLineBytes) }
            let chunk = try readChunk()
            if chunk.isEmpty {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk)
            }
        }
    }

    private func readChunk() throws -> [UInt8] {
        if let handle {
            return try handle.read(upToCount: chunkSize).map { [UInt8]($0) } ?? []
        }
        let count = min(chunkSize, pending.count)
        defer { pending.removeFirst(count) }
        return Array(pending[..<count])
    }

    private func makeLine(upTo end: Int, terminated: Bool) -> Line {
        var end = end
        if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var begin = start
        // A byte-order mark, which some Windows editors put at the start of a file saved as UTF-8,
        // would otherwise make the first column name "\u{FEFF}t".
        if number == 0, buffer[begin..<end].starts(with: [0xEF, 0xBB, 0xBF]) { begin += 3 }
        number += 1
        return Line(text: String(decoding: buffer[begin..<end], as: UTF8.self), number: number, terminated: terminated)
    }
}
