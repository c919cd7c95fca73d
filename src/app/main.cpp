// runwarden's executable: the command line, and nothing else. Everything lives in the
// library so that a host program and the simulation can use the same code.
#include "src/app/cli.hpp"

int main(int argc, char** argv) { return runwarden::run_cli(argc, argv); }
