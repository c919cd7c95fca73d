# Finds CAF 0.17.6 (the C++ Actor Framework, Debian's libcaf-dev), which ships neither a CMake
# config nor a pkg-config file, and defines the imported target CAF::core. The version is
# pinned: 0.18 and later changed the API runwarden is written against. Installed with
# runwarden's CMake package, so find_package(runwarden) finds CAF the same way.

find_package(Threads REQUIRED)
find_path(CAF_INCLUDE_DIR caf/all.hpp)
find_library(CAF_CORE_LIBRARY NAMES caf_core)
if(CAF_INCLUDE_DIR)
  file(STRINGS "${CAF_INCLUDE_DIR}/caf/config.hpp" caf_version_line
       REGEX "^#define CAF_VERSION [0-9]+")
  string(REGEX REPLACE "^#define CAF_VERSION ([0-9]+).*" "\\1" caf_version_number
         "${caf_version_line}")
  math(EXPR caf_major "${caf_version_number} / 10000")
  math(EXPR caf_minor "${caf_version_number} / 100 % 100")
  math(EXPR caf_patch "${caf_version_number} % 100")
  set(CAF_VERSION "${caf_major}.${caf_minor}.${caf_patch}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CAF REQUIRED_VARS CAF_CORE_LIBRARY CAF_INCLUDE_DIR
                                  VERSION_VAR CAF_VERSION)
if(CAF_FOUND AND NOT TARGET CAF::core)
  add_library(CAF::core INTERFACE IMPORTED)
  # CAF's headers trip warnings that are not ours: they count as system headers.
  target_include_directories(CAF::core SYSTEM INTERFACE "${CAF_INCLUDE_DIR}")
  target_link_libraries(CAF::core INTERFACE "${CAF_CORE_LIBRARY}" Threads::Threads)
endif()
