// rope-lab: the RoPE Lab desktop application and its command line (cli/cli.h).
#include "cli/cli.h"

int main(int argc, char** argv) {
  return rope::app::run_cli(argc, argv);
}
