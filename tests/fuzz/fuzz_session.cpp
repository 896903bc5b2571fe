// Fuzz target: the session loader (app/state/session.h) on arbitrary text. A session that loads
// must survive a save and a reload unchanged: the property a lecturer relies on when a session
// saved at home opens in the lecture hall.
#include <string>

#include "fuzz_entry.h"
#include "state/session.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rope::app;
  Params p;
  if (!session_from_json(rope::fuzz::as_text(data, size), p)) return 0;
  const std::string saved = session_to_json(p);
  Params again;
  if (!session_from_json(saved, again)) rope::fuzz::broken();
  if (session_to_json(again) != saved) rope::fuzz::broken();
  return 0;
}
