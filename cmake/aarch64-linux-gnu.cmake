# Cross-compiles for aarch64 (arm64) Linux with Debian 12's cross toolchain
# (crossbuild-essential-arm64) against Debian's multiarch :arm64 development packages, which
# install beside the amd64 ones in /usr/lib/aarch64-linux-gnu and /usr/include/aarch64-linux-gnu
# (scripts/install-deps-arm64.sh installs both). Used by `scripts/build.sh static-arm64`.
# No sysroot: Debian's cross compiler already searches the multiarch directories of /, and the
# architecture-independent headers (/usr/include) are shared with the host. Programs run at
# build time (protoc, grpc_cpp_plugin) are the host's amd64 ones; what CMake or CTest must run
# of the target's goes through qemu-user.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# find_library and find_package look in lib/aarch64-linux-gnu, never in the host's
# lib/x86_64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkg-config (FindOpenSSL, FindZLIB, FindCURL ask it first) with the target's .pc files only.
set(PKG_CONFIG_EXECUTABLE aarch64-linux-gnu-pkg-config)
# try_run in the dependencies' builds, and add_test's target executables, run under qemu.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
