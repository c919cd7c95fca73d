// toml++'s implementation, compiled once for the static variant (Debian ships it as a shared
// library only): TOML_IMPLEMENTATION in one file with the header's own definitions is how
// toml++ documents building it as a library (cmake/StaticDependencies.cmake).
#include <toml++/toml.h>
