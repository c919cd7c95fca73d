// Catch2's main, compiled for the target: Debian's libCatch2WithMain.a is amd64 only (the
// catch2 package is not multiarch), so the cross-built unit tests bring their own.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
