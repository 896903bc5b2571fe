// cli/man_page.h — rope-lab(1), written from the parsed command line itself: every subcommand
// and option CLI11 knows, with the help text the --help screens show (which states each range),
// so the manual cannot drift from the program. `rope-lab --man-page` prints it; the build writes
// it to rope-lab.1 and `cmake --install` puts it in share/man/man1.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace rope::app {

// The whole page in man(7) roff: NAME, SYNOPSIS, DESCRIPTION, OPTIONS (the window's), one
// section per subcommand (export's datasets each in their own), EXIT STATUS, ENVIRONMENT, FILES.
std::string man_page(const CLI::App& root, const std::string& version);

}  // namespace rope::app
