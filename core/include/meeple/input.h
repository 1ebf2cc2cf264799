// Text and files from outside the engine (records, weight and policy files, rule strings, bot specs) are
// read only through these, so that no input can make a reader recurse without bound, grow without bound
// or wait forever, and no message can be larger than a few hundred bytes whatever it quotes:
// - parse_json caps nesting (nlohmann's dump(), ==, copies and our own walks all recurse over depth,
//   and a record of 100,000 brackets overflowed the stack) and refuses a key given twice (nlohmann
//   keeps the last silently: "players": 2, "players": 3 would be 3 players);
// - excerpt() is what a message quotes of input: a 10 MB value gives a message of a few hundred bytes;
// - InputFile opens only regular files (a FIFO, /dev/zero or a directory never end or are not files)
//   and reads with a cap, whole or line by line.
// Numbers are checked by meeple/checked.h.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace meeple {

// The deepest nesting of arrays and objects parse_json takes: records nest 4 deep, weight files 5.
inline constexpr int kMaxJsonDepth = 64;
// The most bytes of input a message quotes.
inline constexpr size_t kMaxQuoted = 200;
// A record, as a file or as a line of a .jsonl file (a whole game with every expansion is under 20 KB).
inline constexpr size_t kMaxRecordBytes = size_t{16} << 20;
// An evaluator weight file or a policy file (the shipped ones are under 20 KB).
inline constexpr size_t kMaxWeightFileBytes = size_t{64} << 20;

// `text` as a JSON tree. std::invalid_argument, its message at most a few hundred bytes, for text that is
// not JSON (nlohmann's message), has a NUL byte (nlohmann would stop reading there), nests arrays and
// objects deeper than kMaxJsonDepth ("nesting deeper than 64 at offset N"), or gives a key twice in one
// object ("key 'K' given twice in PATH").
nlohmann::json parse_json(std::string_view text);

// At most `limit` bytes of `text` (cut at a character boundary), with "... (N bytes)" when cut.
std::string excerpt(std::string_view text, size_t limit = kMaxQuoted);
// A JSON value's compact text for a message, cut the same way without writing the rest, however large.
std::string excerpt_json(const nlohmann::json& value);

// A file opened for reading: a regular file, or standard input for "-". Never blocks on opening (a FIFO
// with no writer) and never reads more than the cap it is given.
class InputFile {
 public:
  // std::invalid_argument "cannot read WHAT 'PATH': REASON" when it cannot be opened or is not a regular
  // file ("it is a directory (a FIFO, a character device, ...), not a regular file"); later errors alike.
  InputFile(const std::string& path, std::string_view what);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // The rest of the file; std::invalid_argument when it holds more than `cap` bytes, read no further.
  std::string read_all(size_t cap);
  // The next line, without its "\n"; false at the end of the file. std::invalid_argument naming the
  // line's number when it is longer than `cap` bytes, read no further.
  bool read_line(std::string& line, size_t cap);
  // The number of the line read last (1 for the first).
  size_t line_number() const { return line_number_; }

 private:
  bool fill();  // more bytes into the buffer; false at the end of the file
  [[noreturn]] void fail(const std::string& why) const;
  std::string path_, what_;
  int fd_ = -1;
  bool owned_ = false;
  std::string buffer_;
  size_t start_ = 0;  // bytes of buffer_ before it are consumed
  size_t line_number_ = 0;
};

// "a directory", "a FIFO (a pipe)", "a character device", ... for a stat() mode that is not a regular file's.
const char* file_kind(unsigned mode);

// "N MiB" or "N bytes": how the caps are written in messages.
std::string size_text(size_t bytes);

}  // namespace meeple
