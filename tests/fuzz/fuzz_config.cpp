// Fuzz target: a model's config.json (app/state/hf_config.h, parse_hf_config) on arbitrary text.
// A refusal names a field and says why; a config it accepts applies to the state as a preset
// and leaves a state that validates.
#include "fuzz_entry.h"
#include "state/app_state.h"
#include "state/hf_config.h"
#include "state/params.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rope::app;
  const std::string_view text = rope::fuzz::as_text(data, size);
  (void)looks_like_model_config(text);
  auto read = parse_hf_config(text, "config.json");
  if (!read) {
    if (read.error().parameter.empty() || read.error().message.empty()) rope::fuzz::broken();
    return 0;
  }
  Params p;
  if (!apply_model(p, read.value().preset) || !validate_params(p)) rope::fuzz::broken();
  return 0;
}
