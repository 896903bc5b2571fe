// cli/completion.h — bash and zsh completion for rope-lab, written from the parsed command line
// itself (like cli/man_page.h): the subcommands and the export datasets, every option of each,
// the values of the options that take one of a few words (from the parameter table: --view,
// --scaling, --pairing, ...; --model from the model presets), file names where a file is asked
// for (-o, --session, the factor files, the session positional) and folders after
// --lessons-dir. `rope-lab --bash-completion` prints bash's; the build writes it and `cmake
// --install` puts it in share/bash-completion/completions/rope-lab.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace rope::app {

std::string bash_completion(const CLI::App& root);
// The same for zsh, with each flag's and subcommand's help beside it: `rope-lab
// --zsh-completion` prints it, installed as share/zsh/vendor-completions/_rope-lab.
std::string zsh_completion(const CLI::App& root);

}  // namespace rope::app
