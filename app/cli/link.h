// cli/link.h — a state as a link: the browser build's URL fragment carries the command line's
// state flags without their dashes ("#view=extension&dim=128&scaling=yarn&factor=16",
// "#lesson=12&step=3"), read through the same parameter table and the same rules as the flags
// (cli/state_flags.h), so a link says exactly what `rope-lab --view extension --dim 128 ...`
// says. Values are percent-encoded; a boolean may stand alone ("playing" = "playing=true").
//
// Usage:
//   const LinkResult r = apply_link(fragment, state.params);  // fragment without the '#'
//   for (const Error& e : r.refused) show(e.to_string());      // the others are applied
//   std::string fragment = link_of(state.params);              // "view=extension&dim=128"
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rope/conventions.h"
#include "state/app_state.h"

namespace rope::app {

struct LinkResult {
  std::vector<Error> refused;  // one per refused entry: the parameter as written and why
  int applied = 0;             // entries applied
};

// Applies every entry of a fragment that the parameter table accepts, each checked as the
// flag would be and together with the entries before it; an entry refused is reported and
// skipped, and the rest still apply. params changes only by accepted entries.
LinkResult apply_link(std::string_view fragment, Params& params);

// The fragment of params: each parameter whose value differs from a fresh state's, in the
// parameter table's order, as name=value. With a lesson on screen, the lesson and its step
// (the step sets the rest): "lesson=12-scaling-methods&step=3".
std::string link_of(const Params& params);

// "a b&c" -> "a%20b%26c": everything but letters, digits and -._~,: is percent-encoded.
std::string percent_encode(std::string_view text);
// "%20" -> " "; a '%' not followed by two hex digits is kept as it is.
std::string percent_decode(std::string_view text);

}  // namespace rope::app
