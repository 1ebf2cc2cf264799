// libFuzzer target: any bytes as a meeple-game/1 record. A record is either replayed, to a state that
// passes the consistency check and whose written form replays to the same state, or refused with a
// RecordError of at most a few hundred bytes; any other exception, crash, hang or sanitizer report is a
// finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "meeple/input.h"
#include "meeple/record.h"

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "finding: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meeple;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  GameRecord record;
  State final_state(Rules{});
  try {
    record = parse_record(text);
    final_state = replay(record);
  } catch (const RecordError& e) {
    // Refused with a message: what bad records get. What it quotes of the record is capped.
    if (std::string_view(e.what()).size() > 8 * kMaxQuoted) finding("message too long", std::string(e.what()).substr(0, 400));
    return 0;
  }
  if (const std::string problem = final_state.check_consistency(); !problem.empty()) finding("inconsistent state", problem);
  try {
    if (!(replay(parse_record(record.to_line())) == final_state)) finding("written record replays differently", record.to_line());
  } catch (const RecordError& e) {
    finding("written record refused", e.what());
  }
  return 0;
}
