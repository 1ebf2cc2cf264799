#include "meeple/input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace meeple {

using nlohmann::json;

namespace {

// The length of the longest prefix of `text` of at most `limit` bytes that ends at a character boundary.
size_t cut_at(std::string_view text, size_t limit) {
  if (text.size() <= limit) return text.size();
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

std::string dump_text(const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); }

// Appends v's compact text to `out` until `out` holds more than `limit` bytes (`cut` says it stopped
// early). Every level writes a bracket before going deeper, so the recursion is at most `limit` deep,
// whatever the value's depth.
void write_bounded(const json& v, std::string& out, size_t limit, bool& cut) {
  if (out.size() > limit) {
    cut = true;
    return;
  }
  if (v.is_array() || v.is_object()) {
    out += v.is_array() ? '[' : '{';
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (out.size() > limit) {
        cut = true;
        return;
      }
      if (!first) out += ',';
      first = false;
      if (v.is_object()) out += dump_text(std::string(it.key(), 0, cut_at(it.key(), limit))) + ':';
      write_bounded(*it, out, limit, cut);
    }
    out += v.is_array() ? ']' : '}';
  } else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    const size_t keep = cut_at(s, limit - out.size() + 1);
    if (keep < s.size()) cut = true;
    out += dump_text(s.substr(0, keep));
  } else {
    out += v.dump();
  }
}

// A NUL byte, or arrays and objects nested deeper than kMaxJsonDepth, anywhere in `text` (strings
// skipped): one pass, before nlohmann builds anything.
void check_bytes(std::string_view text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0') throw std::invalid_argument("a NUL byte at offset " + std::to_string(i) + " (JSON is text)");
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        throw std::invalid_argument("nesting deeper than " + std::to_string(kMaxJsonDepth) + " at offset " + std::to_string(i));
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;  // an unbalanced bracket is the parser's to refuse
    }
  }
}

// Watches nlohmann's parse for a key given twice in one object: nlohmann keeps the last value silently.
class DuplicateKeys {
 public:
  bool operator()(int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: open_.push_back({true, {}}); break;
      case json::parse_event_t::array_start: open_.push_back({false, {}}); break;
      case json::parse_event_t::key: open_.back().keys.push_back(parsed.get<std::string>()); break;
      case json::parse_event_t::object_end:
        if (parsed.size() != open_.back().keys.size()) throw std::invalid_argument(duplicate());
        close();
        break;
      case json::parse_event_t::array_end: close(); break;
      case json::parse_event_t::value:
        if (!open_.empty() && !open_.back().object) ++open_.back().elements;
        break;
    }
    return true;
  }

 private:
  struct Open {
    bool object;
    std::vector<std::string> keys;  // an object's, in order
    size_t elements = 0;            // an array's, finished so far
  };

  void close() {
    open_.pop_back();
    if (!open_.empty() && !open_.back().object) ++open_.back().elements;
  }

  // "key 'K' given twice in PATH" for the object just closed (the top of open_).
  std::string duplicate() const {
    std::vector<std::string> keys = open_.back().keys;
    std::sort(keys.begin(), keys.end());
    const auto twice = std::adjacent_find(keys.begin(), keys.end());
    std::string path;
    for (size_t i = 0; i + 1 < open_.size(); ++i)
      path += open_[i].object ? (path.empty() ? "" : ".") + excerpt(open_[i].keys.back(), 40)
                              : "[" + std::to_string(open_[i].elements) + "]";
    return "key '" + excerpt(twice == keys.end() ? "" : *twice) + "' given twice" +
           (path.empty() ? "" : " in " + excerpt(path));
  }

  std::vector<Open> open_;
};

}  // namespace

const char* file_kind(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (a pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "something other than a regular file";
}

std::string excerpt(std::string_view text, size_t limit) {
  const size_t keep = cut_at(text, limit);
  if (keep == text.size()) return std::string(text);
  return std::string(text.substr(0, keep)) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string excerpt_json(const json& value) {
  std::string out;
  bool cut = false;
  write_bounded(value, out, kMaxQuoted, cut);
  if (!cut && out.size() <= kMaxQuoted) return out;
  return out.substr(0, cut_at(out, kMaxQuoted)) + "...";
}

json parse_json(std::string_view text) {
  check_bytes(text);
  try {
    return json::parse(text, DuplicateKeys());
  } catch (const json::exception& e) {  // bad syntax or UTF-8, a number beyond a double: its message quotes the input
    throw std::invalid_argument(excerpt(e.what(), 2 * kMaxQuoted));
  }
}

std::string size_text(size_t bytes) {
  if (bytes % (size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

InputFile::InputFile(const std::string& path, std::string_view what) : path_(path), what_(what) {
  if (path == "-") {
    fd_ = STDIN_FILENO;
    return;
  }
  // O_NONBLOCK: opening a FIFO with no writer would wait for one; a regular file does not care.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) fail(std::strerror(errno));
  struct stat st {};
  const bool known = ::fstat(fd_, &st) == 0;
  const int error = errno;
  if (!known || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fail(known ? std::string("it is ") + file_kind(st.st_mode) + ", not a regular file" : std::strerror(error));
  }
  owned_ = true;
}

InputFile::~InputFile() {
  if (owned_) ::close(fd_);
}

void InputFile::fail(const std::string& why) const {
  throw std::invalid_argument("cannot read " + what_ + " '" + excerpt(path_) + "': " + why);
}

bool InputFile::fill() {
  if (start_ > 0 && start_ * 2 >= buffer_.size()) {  // drop what was consumed before the buffer grows
    buffer_.erase(0, start_);
    start_ = 0;
  }
  constexpr size_t kChunk = 1 << 16;
  const size_t had = buffer_.size();
  buffer_.resize(had + kChunk);
  ssize_t n;
  do {
    n = ::read(fd_, buffer_.data() + had, kChunk);
  } while (n < 0 && errno == EINTR);
  const int error = errno;
  buffer_.resize(had + static_cast<size_t>(std::max<ssize_t>(n, 0)));
  if (n < 0) fail(std::strerror(error));
  return n > 0;
}

std::string InputFile::read_all(size_t cap) {
  while (buffer_.size() - start_ <= cap)
    if (!fill()) return buffer_.substr(start_);
  fail("it holds more than " + size_text(cap) + ", the most meeple reads of it");
}

bool InputFile::read_line(std::string& line, size_t cap) {
  size_t scanned = start_;  // no newline before here
  for (;;) {
    const size_t newline = buffer_.find('\n', scanned);
    const size_t end = newline == std::string::npos ? buffer_.size() : newline;
    if (end - start_ > cap)
      fail("line " + std::to_string(line_number_ + 1) + " is longer than " + size_text(cap) + ", the most meeple reads of a line");
    if (newline != std::string::npos) {
      line.assign(buffer_, start_, newline - start_);
      start_ = newline + 1;
      ++line_number_;
      return true;
    }
    scanned = buffer_.size() - start_;  // fill() may move the unread bytes to the front
    if (!fill()) {
      if (start_ == buffer_.size()) return false;
      line.assign(buffer_, start_, std::string::npos);  // a last line without "\n"
      start_ = buffer_.size();
      ++line_number_;
      return true;
    }
    scanned += start_;
  }
}

}  // namespace meeple
