# Every dependency comes from Debian 12's packages (scripts/install-deps.sh installs them).

find_package(Threads REQUIRED)

# CAF 0.17.6 ships neither a CMake config nor a pkg-config file: find it by hand and pin the
# version, since 0.18 and later changed the API this code is written against.
find_path(CAF_INCLUDE_DIR caf/all.hpp REQUIRED)
find_library(CAF_CORE_LIBRARY NAMES caf_core REQUIRED)
file(STRINGS "${CAF_INCLUDE_DIR}/caf/config.hpp" caf_version_line
     REGEX "^#define CAF_VERSION [0-9]+")
string(REGEX REPLACE "^#define CAF_VERSION ([0-9]+).*" "\\1" CAF_VERSION_NUMBER
       "${caf_version_line}")
if(NOT CAF_VERSION_NUMBER EQUAL 1706)
  message(FATAL_ERROR "runwarden needs CAF 0.17.6 (1706), found ${CAF_VERSION_NUMBER}")
endif()
add_library(CAF::core INTERFACE IMPORTED)
target_include_directories(CAF::core SYSTEM INTERFACE "${CAF_INCLUDE_DIR}")
target_link_libraries(CAF::core INTERFACE "${CAF_CORE_LIBRARY}" Threads::Threads)

find_path(ASIO_INCLUDE_DIR asio.hpp REQUIRED)
add_library(asio::asio INTERFACE IMPORTED)
target_include_directories(asio::asio SYSTEM INTERFACE "${ASIO_INCLUDE_DIR}")
# ASIO_DISABLE_STD_ALIGNED_ALLOC: asio decides whether to use aligned_alloc from a libstdc++
# macro that is only defined once a standard header came first, so two files could define
# asio::aligned_new differently (an ODR violation ASan reports as alloc-dealloc-mismatch).
target_compile_definitions(asio::asio INTERFACE ASIO_STANDALONE ASIO_NO_DEPRECATED
                                                ASIO_DISABLE_STD_ALIGNED_ALLOC)

find_package(fmt REQUIRED CONFIG)
find_package(spdlog REQUIRED CONFIG)
find_package(tomlplusplus REQUIRED CONFIG)
find_package(CLI11 REQUIRED CONFIG)
find_package(nlohmann_json 3 REQUIRED CONFIG)

# The control API (gRPC on protobuf). Debian ships gRPCConfig.cmake and protoc's plugin.
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_program(GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)

# HTTP for webhooks and cloud APIs (libcurl, OpenSSL flavour) and HMAC for their signatures.
find_package(CURL 7.85 REQUIRED)
find_package(OpenSSL 3 REQUIRED)

# The HTTP server behind /metrics, /healthz and /readyz (Boost.Beast, header-only).
find_package(Boost 1.74 REQUIRED)

# AWS Query protocol answers (Auto Scaling) are XML, read with pugixml.
find_package(pugixml 1.13 REQUIRED CONFIG)

# sd_notify(3) for Type=notify, STATUS= lines and the watchdog (libsystemd-dev).
find_package(PkgConfig REQUIRED)
pkg_check_modules(libsystemd REQUIRED IMPORTED_TARGET libsystemd)

# Webhook body templates are Mustache (libkainjow-mustache-dev, one header, no build files).
find_path(KAINJOW_MUSTACHE_INCLUDE_DIR kainjow/mustache.hpp REQUIRED)
add_library(kainjow::mustache INTERFACE IMPORTED)
target_include_directories(kainjow::mustache SYSTEM INTERFACE ${KAINJOW_MUSTACHE_INCLUDE_DIR})
