# Finds standalone asio (Debian's libasio-dev, headers only, no CMake config) and defines the
# imported target asio::asio. Installed with runwarden's CMake package.

find_path(ASIO_INCLUDE_DIR asio.hpp)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(asio REQUIRED_VARS ASIO_INCLUDE_DIR)
if(asio_FOUND AND NOT TARGET asio::asio)
  add_library(asio::asio INTERFACE IMPORTED)
  target_include_directories(asio::asio SYSTEM INTERFACE "${ASIO_INCLUDE_DIR}")
  # ASIO_DISABLE_STD_ALIGNED_ALLOC: asio decides whether to use aligned_alloc from a
  # libstdc++ macro that is only defined once a standard header came first, so two files
  # could define asio::aligned_new differently (an ODR violation ASan reports as
  # alloc-dealloc-mismatch).
  target_compile_definitions(asio::asio INTERFACE ASIO_STANDALONE ASIO_NO_DEPRECATED
                                                  ASIO_DISABLE_STD_ALIGNED_ALLOC)
endif()
