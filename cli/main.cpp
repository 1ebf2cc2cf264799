// The `meeple` command line: replay records, self-play, perft, info.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "meeple/ai/bots.h"
#include "meeple/ai/match.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/player.h"
#include "meeple/checked.h"
#include "meeple/input.h"
#include "meeple/perft.h"
#include "meeple/random.h"
#include "meeple/record.h"
#include "meeple/version.h"


using nlohmann::json;
using namespace meeple;

namespace {

// Exit status for bad input (records, files, arguments), as the record spec asks for replay errors.
constexpr int kBadInput = 2;

// Which game a command plays, in Rules::parse's one grammar: --rules gives the text, and --players,
// --expansions and --option are shorthand for words of the same text (a name given both ways is refused
// as given twice).
struct RulesFlags {
  std::string text;
  std::optional<int> players;
  std::string expansions;
  std::vector<std::string> options;

  void add_to(CLI::App* command, const std::string& players_default) {
    std::string expansion_names, option_names;
    for (int i = 0; i < kNumExpansions; ++i)
      expansion_names += (i ? ", " : "") + std::string(expansion_name(static_cast<Expansion>(1 << i)));
    for (const OptionSpec& o : option_specs()) option_names += (option_names.empty() ? "" : ", ") + std::string(o.name);
    command->add_option("--rules", text, "the game as one text, e.g. \"players=3 expansions=river2,count small_city=two_points\"");
    command->add_option("--players", players, "shorthand for players=N in --rules, 2 to " + std::to_string(kMaxPlayers) +
                                                  " (default: " + players_default + ")");
    command->add_option("--expansions", expansions, "shorthand for expansions=... in --rules, comma-separated: " + expansion_names);
    command->add_option("--option", options, "shorthand for NAME=VALUE in --rules (repeatable): " + option_names +
                                                 " (meeple info lists the values)");
  }

  Rules rules(int default_players = 0) const {
    std::string full = text;
    if (players) full += " players=" + std::to_string(*players);
    if (!expansions.empty()) full += " expansions=" + expansions;
    for (const std::string& o : options) full += " " + o;
    bool has_players = false;
    std::istringstream words(full);
    for (std::string word; words >> word;) has_players = has_players || word.starts_with("players=");
    const bool defaulted = !has_players && default_players != 0;
    if (defaulted) full += " players=" + std::to_string(default_players);
    try {
      return Rules::parse(full);
    } catch (const std::invalid_argument& e) {
      const size_t first = full.find_first_not_of(' ');
      throw std::invalid_argument(std::string(e.what()) + " (the game as given: \"" + excerpt(full.substr(first == std::string::npos ? 0 : first)) +
                                  "\", from --rules, --players, --expansions and --option" +
                                  (defaulted ? ", and one seat per bot by default" : "") + ")");
    }
  }
};

// Records keep seeds as signed 64-bit numbers: the last game's must fit too.
void check_last_seed(uint64_t first, uint64_t offset) {
  if (first > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - offset)
    throw std::invalid_argument("--seed: the last game's seed (" + std::to_string(first) + " + " + std::to_string(offset) +
                                ") must be at most " + std::to_string(std::numeric_limits<int64_t>::max()));
}

// JSON for the terminal: bytes that are not UTF-8 (from a bad record, quoted in an error) become U+FFFD
// instead of stopping the output.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// One record's replay: the line printed for it, without where it came from.
struct Replayed {
  size_t line = 0;  // its first line in the file
  bool ok = false;
  int action = -1;   // of an error
  std::string text;  // the scores, or the error
};

Replayed replay_one(const std::string& text, size_t line, bool as_json) {
  Replayed r{line, true, -1, ""};
  try {
    const State final_state = replay(parse_record(text));
    if (as_json) {
      r.text = dump(scores_json(final_state));
    } else {
      r.text = std::string(final_state.is_terminal() ? "final" : "unfinished") + " scores";
      for (int p = 0; p < final_state.num_players(); ++p) r.text += " " + std::to_string(final_state.score(p));
    }
  } catch (const RecordError& e) {
    r = {line, false, e.action(), e.what()};
  }
  return r;
}

void print(const Replayed& r, const std::string& where, bool as_json) {
  if (as_json) std::cout << (r.ok ? r.text : dump(json{{"error", {{"action", r.action}, {"message", r.text}}}})) << "\n";
  else (r.ok ? std::cout : std::cerr) << where << ": " << r.text << "\n";
}

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

// One record (which may span lines), or JSON Lines with one record a line. The file is read a line at a
// time, each line at most kMaxRecordBytes, and each record replayed as soon as it is read: only a file
// whose first line is not a whole record is held, up to kMaxRecordBytes, to see whether it is one record
// written over several lines.
int run_replay(const std::string& path, bool as_json) {
  int status = 0;
  size_t count = 0;
  std::optional<Replayed> first;  // printed once it is known whether more records follow (then with its line)
  auto where = [&](size_t line) { return path + " line " + std::to_string(line); };
  auto report = [&](Replayed r) {
    if (!r.ok) status = kBadInput;
    if (++count == 1) {
      first = std::move(r);
      return;
    }
    if (first) print(*first, where(first->line), as_json), first.reset();
    print(r, where(r.line), as_json);
  };
  try {
    InputFile file(path, "record file");
    std::vector<std::pair<size_t, std::string>> held;  // lines of a file not yet known to be JSON Lines
    size_t held_bytes = 0;
    bool json_lines = false, text_held = false;
    auto replay_held = [&] {
      for (const auto& [number, text] : held)
        if (!blank(text)) report(replay_one(text, number, as_json));
      held.clear();
    };
    for (std::string line; file.read_line(line, kMaxRecordBytes);) {
      if (json_lines) {
        if (!blank(line)) report(replay_one(line, file.line_number(), as_json));
        continue;
      }
      if (!text_held && !blank(line) && json::accept(line)) {
        json_lines = true;
        replay_held();  // blank lines
        report(replay_one(line, file.line_number(), as_json));
        continue;
      }
      text_held = text_held || !blank(line);
      held_bytes += line.size() + 1;
      held.emplace_back(file.line_number(), std::move(line));
      if (held_bytes > kMaxRecordBytes) {  // too long for one record: each line is one
        json_lines = true;
        replay_held();
      }
    }
    if (!json_lines) {
      std::string text;
      for (const auto& [number, line] : held) text += line + "\n";
      if (!text_held || json::accept(text)) report(replay_one(text, 1, as_json));
      else replay_held();
    }
  } catch (const std::invalid_argument& e) {  // cannot be opened or read, not a regular file, a line too long
    status = kBadInput;
    if (first) print(*first, where(first->line), as_json), first.reset();
    if (as_json) std::cout << dump(json{{"error", {{"action", -1}, {"message", e.what()}}}}) << "\n";
    else std::cerr << "meeple: " << e.what() << "\n";
  }
  if (first) print(*first, path, as_json);
  return status;
}

struct SeatStats {
  int64_t win_units = 0;
  int64_t score = 0;
  std::array<int64_t, kNumCategories> categories{};
};

// What the signal handler of a run writing --out may read: set before it is installed.
struct Interrupted {
  std::string temp, path;            // the temporary file and the file it is to replace
  std::atomic<size_t> records{0};    // whole records in `temp`
  struct sigaction previous[2] {};   // SIGINT's and SIGTERM's handlers before
};
Interrupted interrupted;
constexpr int kStopSignals[2] = {SIGINT, SIGTERM};

void write_stderr(const char* text) { (void)!::write(STDERR_FILENO, text, std::strlen(text)); }

// Ctrl-C or kill: the finished games stay in the temporary file, and the message says where (or, when
// none has finished, the file goes). Then the signal's default action ends the process as it would have.
extern "C" void on_stop_signal(int signal) {
  const size_t records = interrupted.records.load();
  if (records == 0) {
    ::unlink(interrupted.temp.c_str());
    write_stderr("\nmeeple: stopped before any game finished; '");
    write_stderr(interrupted.path.c_str());
    write_stderr("' is unchanged\n");
  } else {
    char digits[24];
    char* d = digits + sizeof digits;
    *--d = '\0';
    for (size_t n = records; n || d == digits + sizeof digits - 1; n /= 10) *--d = static_cast<char>('0' + n % 10);
    write_stderr("\nmeeple: stopped; the records of the ");
    write_stderr(d);
    write_stderr(" games finished so far are in '");
    write_stderr(interrupted.temp.c_str());
    write_stderr("' ('");
    write_stderr(interrupted.path.c_str());
    write_stderr("' is unchanged)\n");
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// A run killed (kill -9) in the middle of writing a record can leave part of it: Linux may end a write to
// a file early when the process gets a fatal signal. A dead run's leftover whose text after its last
// newline is not a whole record is cut back to that newline, so that it replays; a whole record that only
// lost its newline keeps it. Nothing is cut when the file cannot be read. Returns whether a part was cut.
bool drop_cut_record(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size == 0) {
    ::close(fd);
    return false;
  }
  const off_t size = st.st_size;
  off_t end = size;  // one past the last newline once found; 0 if there is none
  char buffer[1 << 16];
  bool readable = true, cut = false;
  for (bool found = false; !found && end > 0;) {
    const off_t begin = std::max<off_t>(0, end - static_cast<off_t>(sizeof buffer));
    if (::pread(fd, buffer, static_cast<size_t>(end - begin), begin) != end - begin) {
      readable = false;
      break;
    }
    const char* newline = static_cast<const char*>(::memrchr(buffer, '\n', static_cast<size_t>(end - begin)));
    found = newline != nullptr;
    end = found ? begin + (newline - buffer) + 1 : begin;
  }
  if (readable && end < size && size - end > static_cast<off_t>(kMaxRecordBytes)) {
    cut = ::ftruncate(fd, end) == 0;  // longer than any record: not a whole one
  } else if (readable && end < size) {
    std::string tail(static_cast<size_t>(size - end), '\0');
    if (::pread(fd, tail.data(), tail.size(), end) == static_cast<ssize_t>(tail.size())) {
      if (json::accept(tail)) (void)!::pwrite(fd, "\n", 1, size);  // whole: only its newline was lost
      else cut = ::ftruncate(fd, end) == 0;
    }
  }
  ::close(fd);
  return cut;
}

// Temporary files FILE.partial-PID beside `target` left by runs that are gone (kill -9, a crash, a
// signal): their finished games are named before this run starts, never silently left behind.
void mention_leftovers(const std::filesystem::path& target) {
  namespace fs = std::filesystem;
  const std::string prefix = target.filename().string() + ".partial-";
  std::error_code ec;
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const int process = std::stoi(pid);  // not this process: it has not made its own yet
    if (process != getpid() && (::kill(process, 0) == 0 || errno != ESRCH)) continue;  // its run is still going
    const bool cut = drop_cut_record(entry.path());
    std::cerr << "meeple: '" << (target.has_parent_path() ? entry.path() : entry.path().filename()).string() << "' holds the records of games finished by an earlier run (process "
              << pid << ") that did not end; it is left as it is" << (cut ? " but for the last record, cut off when that run was killed" : "")
              << ": rename it to keep them\n";
  }
}

// Whether `path` is the terminal this process writes its output or errors to (/dev/stdout, /dev/tty, ...).
// Other devices are not even opened: opening some of them does something.
bool is_our_terminal(const std::string& path) {
  struct stat st {}, out {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) return false;
  for (const int fd : {STDOUT_FILENO, STDERR_FILENO})
    if (::isatty(fd) && ::fstat(fd, &out) == 0 && out.st_rdev == st.st_rdev) return true;
  return false;
}

// Where --out records go. The target is checked before any game is played: a directory, a device such
// as /dev/full, a file in a folder that does not exist, a symlink to nothing and a read-only file are
// refused. A regular file (new or not) is written under a temporary name beside it, FILE.partial-PID,
// and renamed over it, with the old file's mode, only once the run has finished well. A symlink is
// written through: what it points to is replaced and the link stays a link, as a shell's > does (the
// user named the link to write where it points; replacing the link would cut it). A FIFO and the
// terminal are written in place. Finished games are never stranded silently: a run that fails keeps the
// temporary file when it holds any and says where, Ctrl-C and SIGTERM say where, and a run that finds
// such a file of a run that is gone says so. Each record is written whole with one write(), so the file
// holds only whole records.
class RecordFile {
 public:
  explicit RecordFile(const std::string& path) : path_(path) {
    if (path.empty()) return;
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status link = fs::symlink_status(path, ec), status = fs::status(path, ec);
    const std::string out = "--out '" + excerpt(path) + "'";
    if (fs::is_directory(status)) throw std::invalid_argument(out + " is a directory; give a file name");
    if (fs::is_fifo(status)) {
      // Not blocking: a FIFO with no reader would hold the run before its first game.
      fd_ = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd_ < 0)
        throw std::invalid_argument(out + (errno == ENXIO ? std::string(" is a FIFO that no process reads") : ": " + std::string(std::strerror(errno))));
      ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
      return;
    }
    if (is_our_terminal(path)) {  // shows the records; other devices (/dev/full) are refused below, unopened
      fd_ = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd_ < 0) throw std::invalid_argument("cannot write " + out + ": " + std::strerror(errno));
      return;
    }
    fs::path target = path;
    mode_t mode = 0666;  // a new file's, less the umask
    bool keep_mode = false;
    if (fs::exists(status)) {
      struct stat st {};
      if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        throw std::invalid_argument(out + " is " + file_kind(st.st_mode) + ", not a file; give a file name (or a FIFO)");
      // Root may write any file: the mode says whether it is meant to be written.
      if ((st.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0)
        throw std::invalid_argument(out + " is read-only; make it writable or give another name");
      if (fs::is_symlink(link)) target = fs::canonical(path);
      mode = st.st_mode & 07777;
      keep_mode = true;
    } else {
      if (fs::is_symlink(link))
        throw std::invalid_argument(out + " is a symlink to '" + excerpt(fs::read_symlink(path, ec).string()) +
                                    "', which does not exist; give the file's own name");
      const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
      if (!fs::is_directory(folder, ec))
        throw std::invalid_argument(out + ": the folder '" + excerpt(folder.string()) + "' does not exist");
    }
    mention_leftovers(target);
    target_ = target.string();
    temp_ = target_ + ".partial-" + std::to_string(getpid());
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);  // never over a leftover's games
    if (fd_ < 0) throw std::invalid_argument("cannot write " + out + ": '" + temp_ + "': " + std::strerror(errno));
    if (keep_mode && ::fchmod(fd_, mode) != 0) {  // open() took the umask off
      const int error = errno;
      discard();
      throw std::invalid_argument("cannot write " + out + ": " + std::strerror(error));
    }
    interrupted.temp = temp_;
    interrupted.path = path;
    interrupted.records = 0;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 2; ++i) ::sigaction(kStopSignals[i], &action, &interrupted.previous[i]);
  }
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;
  ~RecordFile() {
    if (fd_ < 0) return;
    if (temp_.empty() || records_ == 0) {
      discard();
      return;
    }
    // The run failed: the file it would have replaced stays, and so do the games it finished.
    restore_signals();
    ::close(fd_);
    std::cerr << "meeple: the records of the " << records_ << " games finished before the error are in '" << temp_ << "'\n";
  }
  explicit operator bool() const { return !path_.empty(); }
  void write(const std::string& line) {
    const std::string text = line + '\n';
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int error = n < 0 ? errno : ENOSPC;
        if (!temp_.empty()) (void)!::ftruncate(fd_, written_);  // only whole records stay
        throw std::runtime_error("cannot write '" + excerpt(path_) + "': " + std::strerror(error));
      }
      done += static_cast<size_t>(n);
    }
    written_ += static_cast<off_t>(text.size());
    interrupted.records = ++records_;
  }
  // Every record written: the file takes its place.
  void commit() {
    if (fd_ < 0) return;
    restore_signals();
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0) throw std::runtime_error("cannot write '" + excerpt(path_) + "': " + std::strerror(errno));
    if (temp_.empty()) return;
    if (::rename(temp_.c_str(), target_.c_str()) != 0) {
      const int error = errno;
      throw std::runtime_error("cannot write '" + excerpt(path_) + "': " + std::strerror(error) + "; the records are in '" + temp_ + "'");
    }
  }

 private:
  void restore_signals() {
    if (temp_.empty()) return;
    for (int i = 0; i < 2; ++i) ::sigaction(kStopSignals[i], &interrupted.previous[i], nullptr);
  }
  void discard() {
    restore_signals();
    ::close(fd_);
    fd_ = -1;
    if (!temp_.empty()) ::unlink(temp_.c_str());
  }

  std::string path_, target_, temp_;  // as given; what is replaced (a symlink's target); the temporary file
  int fd_ = -1;
  off_t written_ = 0;  // bytes of whole records
  size_t records_ = 0;
};

// Plays game(0) .. game(count - 1) with a progress line (on a terminal), keeping none of them: each
// finished game goes to `finished` and its record to `out`.
void play_streaming(const Rules& rules, size_t count, const std::function<GameSpec(size_t)>& game, int jobs, RecordFile& out,
                    const std::function<void(size_t, const State&)>& finished) {
  const bool progress = count >= 20 && isatty(fileno(stderr));
  size_t done = 0;
  stream_games(rules, count, game, jobs, static_cast<bool>(out), [&](int g, const State& final_state, const std::string& line) {
    if (out) out.write(line);
    finished(static_cast<size_t>(g), final_state);
    ++done;
    if (progress && (done % std::max<size_t>(1, count / 100) == 0 || done == count))
      std::cerr << "\r" << done << "/" << count << " games" << std::flush;
  });
  if (progress) std::cerr << "\r" << std::string(30, ' ') << "\r";
  out.commit();
}

int run_selfplay(const Rules& rules, int games, int jobs, uint64_t seed, const std::vector<std::string>& bots,
                 const std::string& out_path) {
  const int players = rules.players;
  check_last_seed(seed, static_cast<uint64_t>(games - 1));
  if (bots.size() != 1 && static_cast<int>(bots.size()) != players)
    throw std::invalid_argument("--bot takes one bot for every seat or one per seat (" + std::to_string(players) + ")");
  for (const std::string& b : bots) (void)make_player(b, 0);  // validate names before playing
  std::vector<std::string> seat_bots(players);
  for (int p = 0; p < players; ++p) seat_bots[p] = bots.size() == 1 ? bots[0] : bots[p];
  RecordFile out(out_path);
  std::vector<SeatStats> stats(players);
  play_streaming(rules, static_cast<size_t>(games), [&](size_t g) { return GameSpec{seat_bots, seed + g}; }, jobs, out,
                 [&](size_t, const State& state) {
                   const auto units = win_units(state);
                   for (int p = 0; p < players; ++p) {
                     stats[p].win_units += units[p];
                     stats[p].score += state.score(p);
                     for (int c = 0; c < kNumCategories; ++c) stats[p].categories[c] += state.score(p, c);
                   }
                 });
  const double n = games;
  std::printf("%d games, %d players, rules: %s\n", games, players, rules.to_string().c_str());
  std::printf("%-5s %-22s %8s %7s %8s", "seat", "bot", "wins", "win%", "score");
  for (int c = 0; c < kNumCategories; ++c) std::printf(" %8s", category_name(c));
  std::printf("\n");
  for (int p = 0; p < players; ++p) {
    const double wins = static_cast<double>(stats[p].win_units) / kWinUnits;
    std::printf("%-5d %-22s %8.1f %6.1f%% %8.2f", p, seat_bots[p].c_str(), wins, 100.0 * wins / n,
                static_cast<double>(stats[p].score) / n);
    for (int c = 0; c < kNumCategories; ++c) std::printf(" %8.2f", static_cast<double>(stats[p].categories[c]) / n);
    std::printf("\n");
  }
  return 0;
}

// The bots, one per seat, rotate through the seats over each tile order (ai/match.h schedule: with as many
// bots as seats there is one group).
int run_match(const std::vector<std::string>& bots, int games, const Rules& rules, int jobs, uint64_t seed,
              const std::string& out_path) {
  const int players = rules.players;
  if (static_cast<int>(bots.size()) != players)
    throw std::invalid_argument("--bots needs one bot per seat (" + std::to_string(players) +
                                "); repeat a bot to fill seats, e.g. --bots mcts greedy greedy");
  if (games % players != 0)
    throw std::invalid_argument("--games must be a multiple of --players (" + std::to_string(players) +
                                ") so that every tile order is played from every seat");
  check_last_seed(seed, static_cast<uint64_t>(games / players - 1));
  for (const std::string& b : bots) (void)make_player(b, 0);
  Standings standings(bots);
  RecordFile out(out_path);
  const std::vector<Seating> plan = schedule(players, static_cast<size_t>(games), players, seed);
  auto seat_bots_of = [&](size_t g) {
    std::vector<std::string> seat_bots;
    for (int bot : plan[g].seats) seat_bots.push_back(bots[static_cast<size_t>(bot)]);
    return seat_bots;
  };
  play_streaming(rules, static_cast<size_t>(games), [&](size_t g) { return GameSpec{seat_bots_of(g), plan[g].seed}; },
                 jobs, out, [&](size_t g, const State& state) { standings.add(seat_bots_of(g), state); });
  std::printf("%d games (%d tile orders, seats rotated), %d players, rules: %s\n%s", games, games / players, players,
              rules.to_string().c_str(), standings.table().c_str());
  return 0;
}

// Where an MCTS bot's simulations go: positions with a tile in hand from heuristic self-play (turns 10, 30
// and 50 of each game), searched afresh with each budget; one row per budget, figures averaged over the
// positions. See MctsPlayer::Profile.
int run_analyze(const std::string& bot, const std::vector<int>& budgets, int games, const Rules& rules, uint64_t seed) {
  if (bot.substr(0, bot.find(':')) != "mcts") throw std::invalid_argument("--bot must be an mcts spec, e.g. mcts:c=0.4");
  const int players = rules.players;
  const std::string sep = bot.find(':') == std::string::npos ? ":" : bot.back() == ':' ? "" : ",";
  for (int b : budgets)
    if (b < 1) throw std::invalid_argument("--iterations must be positive");
  // A bad spec fails before any game is played.
  auto mcts_bot = [&](int iterations, uint64_t bot_seed) {
    auto player = make_player(bot + sep + "iterations=" + std::to_string(iterations) + ",reuse=0", bot_seed);
    return std::unique_ptr<MctsPlayer>(static_cast<MctsPlayer*>(player.release()));  // an mcts spec makes one
  };
  (void)mcts_bot(1, 0);
  std::vector<State> positions;
  for (int g = 0; g < games; ++g) {
    int placements = 0;
    std::vector<std::string> heuristic(static_cast<size_t>(players), "heuristic");
    play_game(rules, {heuristic, seed + static_cast<uint64_t>(g)}, nullptr, nullptr, [&](const State& s, const Player&) {
      if (s.phase() != Phase::kPlace) return;
      ++placements;
      if (placements == 10 || placements == 30 || placements == 50) positions.push_back(s);
    });
  }
  std::printf("%zu positions (turns 10, 30, 50 of %d heuristic games), rules: %s, bot: %s\n", positions.size(), games,
              rules.to_string().c_str(), bot.c_str());
  std::printf("%9s %7s %6s %6s %6s %6s %6s %6s %6s %6s %6s  %s\n", "sims", "root", "best", "leafD", "leafT", "pvD",
              "pvT", "draw%", "wide%", "root%", "maxD", "share of simulations reaching depth 1, 2, 3, ...");
  for (int budget : budgets) {
    const int kDepths = 12;
    double root = 0, best = 0, leaf_depth = 0, leaf_turns = 0, pv_depth = 0, pv_turns = 0, draw = 0, wide = 0,
           at_root = 0, max_depth = 0;
    std::vector<double> reach(kDepths, 0);
    for (size_t i = 0; i < positions.size(); ++i) {
      const auto mcts = mcts_bot(budget, seed + i);
      mcts->choose(positions[i]);
      const MctsPlayer::Profile p = mcts->profile();
      const double sims = static_cast<double>(std::max<int64_t>(1, p.simulations));
      root += p.root_children;
      best += p.best_share;
      leaf_depth += p.mean_leaf_depth;
      leaf_turns += p.mean_leaf_turns;
      pv_depth += p.principal_depth;
      pv_turns += p.principal_turns;
      draw += static_cast<double>(p.ended_after_draw) / sims;
      wide += static_cast<double>(p.ended_in_wide) / sims;
      at_root += static_cast<double>(p.ended_at_root) / sims;
      max_depth += static_cast<double>(p.depths.size()) - 1;
      for (size_t d = 1; d < p.depths.size() && d <= kDepths; ++d) reach[d - 1] += static_cast<double>(p.depths[d].visits) / sims;
    }
    const double n = static_cast<double>(std::max<size_t>(1, positions.size()));
    std::printf("%9d %7.1f %6.2f %6.2f %6.2f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f ", budget, root / n, best / n,
                leaf_depth / n, leaf_turns / n, pv_depth / n, pv_turns / n, 100 * draw / n, 100 * wide / n,
                100 * at_root / n, max_depth / n);
    for (int d = 0; d < kDepths; ++d) std::printf(" %.2f", reach[static_cast<size_t>(d)] / n);
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("root: root children; best: the chosen child's share of root visits; leafD/leafT: mean steps and tile draws\n"
              "below the root where simulations ended; pvD/pvT: the same along the principal line (nodes with >= %d\n"
              "visits); draw%%/wide%%/root%%: simulations ended at a drawn tile's first visit / at a first visit below a\n"
              "decision with >= %d children / at a root child; maxD: deepest node\n",
              MctsPlayer::Profile::kPrincipalVisits, MctsPlayer::Profile::kWide);
  return 0;
}

int run_perft(uint64_t seed, int depth, const Rules& rules) {
  if (depth < 1 || depth > 12) throw std::invalid_argument("--depth must be 1 to 12");
  const State root(rules);
  const auto order = seeded_draw_order(root, seed);
  const auto counts = perft(root, order, depth);
  std::printf("perft seed %llu, rules: %s\nfirst draws:", static_cast<unsigned long long>(seed), root.rules().to_string().c_str());
  for (int i = 0; i < 6 && i < static_cast<int>(order.size()); ++i) std::printf(" %s", TileCatalog::get()[order[i]].id.c_str());
  std::printf("\n%-6s %16s\n", "depth", "nodes");
  for (int d = 0; d < depth; ++d) std::printf("%-6d %16llu\n", d + 1, static_cast<unsigned long long>(counts[d]));
  return 0;
}

int run_info(bool as_json) {
  std::cout << (as_json ? info_json() + "\n" : info_text());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"meeple: a Carcassonne engine for AI research"};
  // Records keep seeds as signed 64-bit numbers.
  const CLI::Range kSeedRange(uint64_t{0}, uint64_t{std::numeric_limits<int64_t>::max()});
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("meeple ") + MEEPLE_VERSION);

  auto* replay_cmd = app.add_subcommand("replay", "Replay a meeple-game/1 record (or a .jsonl of them) and print the scores");
  std::string replay_path;
  bool replay_json = false;
  replay_cmd->add_option("FILE", replay_path, "record file (.json or .jsonl; - for standard input)")->required();
  replay_cmd->add_flag("--json", replay_json, "print the spec's JSON output (scores and breakdown, or the error)");

  auto* selfplay_cmd = app.add_subcommand("selfplay", "Play games between built-in bots and print wins and mean scores");
  int games = 100, jobs = 1;
  uint64_t seed = 1;
  std::vector<std::string> bots{"random"};
  std::string out_path;
  RulesFlags selfplay_rules, match_rules, perft_rules, analyze_rules;
  selfplay_rules.add_to(selfplay_cmd, "2");
  selfplay_cmd->add_option("--games", games, "number of games")->capture_default_str()->check(CLI::PositiveNumber);
  selfplay_cmd->add_option("--seed", seed, "seed of the first game (game g uses seed + g)")->capture_default_str()->check(kSeedRange);
  selfplay_cmd->add_option("--bot", bots, "one bot spec for all seats, or one per seat; " + bot_spec_help())->capture_default_str();
  selfplay_cmd->add_option("--jobs", jobs, "games played at once (threads)")->capture_default_str()->check(CLI::Range(1, 256));
  selfplay_cmd->add_option("--out", out_path, "write every game as a meeple-game/1 record to this .jsonl file");
  selfplay_cmd->footer("Bots and their parameters:\n" + bot_parameters_help());

  auto* match_cmd = app.add_subcommand("match", "Bots against each other: seats rotated over paired tile orders, win rates with Wilson intervals");
  std::vector<std::string> match_bots;
  int match_games = 100;
  match_cmd->add_option("--bots", match_bots, "one bot spec per seat; " + bot_spec_help())->required();
  match_cmd->add_option("--games", match_games, "number of games (a multiple of the players)")->capture_default_str()->check(CLI::PositiveNumber);
  match_rules.add_to(match_cmd, "one per bot");
  match_cmd->add_option("--seed", seed, "seed of the first tile order")->capture_default_str()->check(kSeedRange);
  match_cmd->add_option("--jobs", jobs, "games played at once (threads); results do not depend on it")->capture_default_str()->check(CLI::Range(1, 256));
  match_cmd->add_option("--out", out_path, "write every game as a meeple-game/1 record (names are the bot specs)");
  match_cmd->footer("Bots and their parameters:\n" + bot_parameters_help());

  auto* perft_cmd = app.add_subcommand("perft", "Count legal action sequences to a depth along a seeded draw order");
  int depth = 4;
  perft_cmd->add_option("--seed", seed, "seed of the draw order")->capture_default_str()->check(kSeedRange);
  perft_cmd->add_option("--depth", depth, "decisions deep, 1 to 12")->capture_default_str();
  perft_rules.add_to(perft_cmd, "2");

  auto* analyze_cmd = app.add_subcommand("analyze", "Where an MCTS bot's simulations go (depths, principal line, chance and wide nodes) at several budgets");
  std::string analyze_bot = "mcts";
  std::vector<int> analyze_budgets{1000, 4000, 16000, 64000};
  int analyze_games = 4;
  analyze_cmd->add_option("--bot", analyze_bot, "an mcts bot spec (iterations are set per row)")->capture_default_str();
  analyze_cmd->add_option("--iterations", analyze_budgets, "simulation budgets, one row each")->capture_default_str()->delimiter(',');
  analyze_cmd->add_option("--games", analyze_games, "heuristic games to take positions from (3 each)")->capture_default_str()->check(CLI::Range(1, 1000));
  analyze_rules.add_to(analyze_cmd, "2");
  analyze_cmd->add_option("--seed", seed, "seed of the first game")->capture_default_str()->check(kSeedRange);

  auto* info_cmd = app.add_subcommand("info", "Version, expansions, options, tile sets, state size");
  bool info_json = false;
  info_cmd->add_flag("--json", info_json, "as JSON");

  // CLI11 would answer a word that names no subcommand with "A subcommand is required".
  if (argc < 2 || argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      known = known || (argc > 1 && sub->get_name() == argv[1]);
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::cerr << "meeple: " << (argc < 2 ? "a subcommand is required" : "unknown subcommand '" + excerpt(argv[1]) + "'")
                << "; the subcommands are " << names << " (meeple --help says more)\n";
      return kBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kBadInput;
  }
  try {
    if (replay_cmd->parsed()) return run_replay(replay_path, replay_json);
    if (selfplay_cmd->parsed()) return run_selfplay(selfplay_rules.rules(), games, jobs, seed, bots, out_path);
    if (match_cmd->parsed())
      return run_match(match_bots, match_games, match_rules.rules(static_cast<int>(match_bots.size())), jobs, seed, out_path);
    if (perft_cmd->parsed()) return run_perft(seed, depth, perft_rules.rules());
    if (info_cmd->parsed()) return run_info(info_json);
    if (analyze_cmd->parsed()) return run_analyze(analyze_bot, analyze_budgets, analyze_games, analyze_rules.rules(), seed);
  } catch (const std::exception& e) {  // bad input, or a file that cannot be read or written
    std::cerr << "meeple: " << e.what() << "\n";
    return kBadInput;
  }
  return 0;
}
