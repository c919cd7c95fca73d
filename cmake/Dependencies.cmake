# Every dependency comes from Debian 12's packages (scripts/install-deps.sh installs them).

# The static variant takes the static archives (cmake/StaticDependencies.cmake says how).

find_package(Threads REQUIRED)
if(RUNWARDEN_STATIC)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
  set(Protobuf_USE_STATIC_LIBS ON)
  set(ZLIB_USE_STATIC_LIBS ON)
  find_package(ZLIB REQUIRED)
  find_package(OpenSSL 3 REQUIRED)
  include(${CMAKE_CURRENT_LIST_DIR}/StaticDependencies.cmake)
else()
  # CAF 0.17.6 ships no CMake config: cmake/FindCAF.cmake finds it (and is installed with
  # runwarden's package for its users).
  list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR})
  find_package(CAF 0.17.6 EXACT REQUIRED)
  find_package(fmt REQUIRED CONFIG)
  find_package(spdlog REQUIRED CONFIG)
  find_package(tomlplusplus REQUIRED CONFIG)
endif()
find_package(CLI11 REQUIRED CONFIG)
find_package(nlohmann_json 3 REQUIRED CONFIG)

# The control API (gRPC on protobuf). Debian ships gRPCConfig.cmake and protoc's plugin.
find_package(Protobuf REQUIRED)
find_package(gRPC CONFIG REQUIRED)
find_program(GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)

# HTTP for webhooks and cloud APIs (libcurl, OpenSSL flavour) and HMAC for their signatures.
if(NOT RUNWARDEN_STATIC)
  find_package(CURL 7.85 REQUIRED)
  find_package(OpenSSL 3 REQUIRED)
endif()

# Boost.Asio for the io thread (signals, the runner's pipes, sockets) and Boost.Beast for
# plain HTTP on it and for the HTTP server behind /metrics, /healthz and /readyz; both
# header-only.
find_package(Boost 1.74 REQUIRED)

# AWS Query protocol answers (Auto Scaling) are XML, read with pugixml.
find_package(pugixml 1.13 REQUIRED CONFIG)

# sd_notify(3) for Type=notify, STATUS= lines and the watchdog (libsystemd-dev).
# The static variant speaks the protocol itself (src/ports/os/notify_datagram.hpp).
if(NOT RUNWARDEN_STATIC)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(libsystemd REQUIRED IMPORTED_TARGET libsystemd)
endif()

# Webhook body templates are Mustache (libkainjow-mustache-dev, one header, no build files).
find_path(KAINJOW_MUSTACHE_INCLUDE_DIR kainjow/mustache.hpp REQUIRED)
add_library(kainjow::mustache INTERFACE IMPORTED)
target_include_directories(kainjow::mustache SYSTEM INTERFACE ${KAINJOW_MUSTACHE_INCLUDE_DIR})

if(RUNWARDEN_STATIC)
  runwarden_prefer_static(gRPC::grpc++ gRPC::grpc++_reflection protobuf::libprotobuf
                          OpenSSL::SSL OpenSSL::Crypto ZLIB::ZLIB pugixml::pugixml)
endif()
