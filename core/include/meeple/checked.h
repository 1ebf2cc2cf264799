// Numbers from outside the engine (records, rule strings, bot specs, the command line, Python) enter its
// narrow types only through these checks, so a value out of range is an error saying the allowed range,
// never a silent wrap (a player count of 2^32 + 2 is not 2 players, a seed of -1 is not 2^64 - 1).
// Callers add the field's name to the message.
#pragma once

#include <charconv>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace meeple {

template <typename T>
std::string range_text(T lo, T hi) {
  return "must be " + std::to_string(lo) + " to " + std::to_string(hi);
}

// `value` as a T when lo <= value <= hi; std::invalid_argument("must be LO to HI, got VALUE") otherwise.
template <typename T, typename V>
T checked(V value, T lo = std::numeric_limits<T>::lowest(), T hi = std::numeric_limits<T>::max()) {
  static_assert(std::is_integral_v<T> && std::is_integral_v<V>);
  if (std::cmp_less(value, lo) || std::cmp_greater(value, hi))
    throw std::invalid_argument(range_text(lo, hi) + ", got " + std::to_string(value));
  return static_cast<T>(value);
}

// checked() with the field's name in front of the message: "FIELD must be LO to HI, got V".
template <typename T, typename V>
T checked_field(V value, std::string_view field, T lo, T hi) {
  try {
    return checked<T>(value, lo, hi);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(field) + " " + e.what());
  }
}

// A whole string as a number in [lo, hi]: no sign on an unsigned type, no text before or after, a finite
// value. std::invalid_argument saying what is wrong otherwise.
template <typename T>
T parse_number(std::string_view text, T lo, T hi) {
  T x{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, x);
  if (text.empty() || error == std::errc::invalid_argument || stop != end)
    throw std::invalid_argument(std::is_integral_v<T> ? "not an integer" : "not a number");
  if (error == std::errc::result_out_of_range || !(x >= lo && x <= hi)) throw std::invalid_argument(range_text(lo, hi));
  return x;
}

}  // namespace meeple
