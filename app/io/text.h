// io/text.h — trimming the text of a value or a line, one rule for the parameter table
// (state/params.cpp), the scaling flags (state/scaling_params.cpp) and the lesson loader.
//
// trim drops spaces and tabs at both ends and carriage returns at the end, so a line of a file
// saved with CRLF endings reads as the same value. Nothing else counts as blank: a no-break space
// or a newline inside a value stays and is reported by whoever reads it.
//
// Usage:
//   const std::string_view t = trim(text);  // a view into `text`
#pragma once

#include <string_view>

namespace rope::app {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace rope::app
