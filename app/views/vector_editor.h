// views/vector_editor.h — the editor of the query or key vector: its preset (unit, all ones,
// seeded random, custom) in a combo, and every one of its d values in a list that folds open.
// Used by the pointers view's panel and by the lesson panel (a step can then show what its prose
// says happens with q = k = all ones, say, without a flag).
//
// Usage: vector_editor("query", state.params.query, false, state.params);
#pragma once

#include "state/app_state.h"

namespace rope::app {

// `choice` is p.query or p.key (`is_key` says which, for the seeded values); `label` keeps two
// editors' ImGui ids apart. Values typed in must be finite and within ±10⁶, else ignored.
void vector_editor(const char* label, VectorChoice& choice, bool is_key, const Params& p);

}  // namespace rope::app
