// rope-lab in a browser: the page's state from its link (cli/link.h), the settings from local
// storage, then the browser's main loop (shell/web_window.h). main returns at once; the page
// keeps running the frames.
#include <cstdlib>
#include <string>

#include "cli/link.h"
#include "shell/web_window.h"
#include "state/actions.h"
#include "state/models.h"

extern "C" char* rope_web_fragment();  // app/shell/web_page.js

int main() {
  using namespace rope::app;
  static AppState state;  // the page's one state, alive as long as its frames
  // defaults < remembered settings < the link
  load_web_settings(state);
  std::string fragment;
  if (char* text = rope_web_fragment()) {
    fragment = text;
    std::free(text);
  }
  const LinkResult link = apply_link(fragment, state.params);
  if (!link.refused.empty()) {
    std::string message = "The link's ";
    for (std::size_t i = 0; i < link.refused.size(); ++i)
      message += (i ? "; " : "") + link.refused[i].to_string();
    show_notice(state, message + " (the other values are applied)", true);
  }
  if (const ModelLibrary& models = model_library(); !models.problem.empty())
    show_notice(state, models.problem, true);
  return run_web_window(state, WebOptions{[](const Params& p) { return link_of(p); }});
}
