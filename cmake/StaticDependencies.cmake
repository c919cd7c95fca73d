# The static variant (RUNWARDEN_STATIC=ON, issue 35): one binary that needs nothing from the
# distribution it runs on, built from Debian 12's packages:
# - gRPC, protobuf, abseil, OpenSSL, c-ares, re2, zlib and pugixml: Debian's own .a archives
#   (runwarden_prefer_static below points their imported targets at them).
# - CAF 0.17.6, fmt, spdlog and toml++ (no .a in Debian) and libcurl (Debian's libcurl.a
#   needs nghttp2, psl, ssh2, gssapi, ldap, rtmp and zstd, which ship no .a): their
#   libraries built here from Debian's source tarballs, checked against the sha256 sums of
#   bookworm's Sources index; curl with Debian's security patches applied and only what
#   runwarden uses (HTTP and HTTPS); toml++'s from its installed header (TOML_IMPLEMENTATION).
# - libsystemd (no .a in Debian): not linked; sd_notify's datagram protocol is implemented
#   in src/ports/os/notify_datagram.cpp (systemd documents it as stable).
# Every library is compiled against the headers Debian installs (the CAF and curl builds
# check that theirs are the same), and runwarden's own files see exactly the compile flags of
# the release build: only the link differs. So ccache serves the release build's objects
# and a static build costs little more than its dependencies and one link.
# The tarballs are downloaded once into RUNWARDEN_SOURCE_CACHE (default
# ~/.cache/runwarden-sources) so that a build from scratch needs the network only once.

include(ExternalProject)
# libcurl is C; the project itself is C++ only.
enable_language(C)

set(RUNWARDEN_SOURCE_CACHE "$ENV{HOME}/.cache/runwarden-sources" CACHE PATH
    "Where the static variant keeps the source tarballs it builds from")
set(debian_pool http://deb.debian.org/debian/pool/main)
set(static_prefix ${PROJECT_BINARY_DIR}/static-deps)
file(MAKE_DIRECTORY ${static_prefix}/include ${static_prefix}/lib)

# Debian's own tarball of each source, and its sha256 from bookworm's Sources index.
set(caf_tarball actor-framework_0.17.6.orig.tar.gz)
set(caf_sha256 e2bf5bd243f08bb7d8adde197cfe3e6d71314ed3378fe0692f8932f4c3b3928c)
set(curl_tarball curl_7.88.1.orig.tar.gz)
set(curl_sha256 cdb38b72e36bc5d33d5b8810f8018ece1baa29a8f215b4495e495ded82bbf3c7)
set(curl_debian_tarball curl_7.88.1-10+deb12u15.debian.tar.xz)
set(curl_debian_sha256 961b78bc48492c5693e4decb352ddd176f343260a8956f48b2887874048ef23b)
set(fmt_tarball fmtlib_9.1.0+ds1.orig.tar.gz)
set(fmt_sha256 84ce1c2d0be3a9863935137969dcec6970125caac032f82474640bfc81463583)
set(spdlog_tarball spdlog_1.10.0+ds.orig.tar.xz)
set(spdlog_sha256 620ca6842b5c21014470bd42eb4716024674214fb973b5ffa3aaea33310ad327)

# Downloads a tarball into the cache unless it is there with the right sum.
function(runwarden_fetch_source name url sha256)
  set(file ${RUNWARDEN_SOURCE_CACHE}/${name})
  if(EXISTS ${file})
    file(SHA256 ${file} existing)
    if(existing STREQUAL sha256)
      return()
    endif()
  endif()
  message(STATUS "Downloading ${url}")
  file(DOWNLOAD ${url} ${file} EXPECTED_HASH SHA256=${sha256} STATUS status)
  list(GET status 0 code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "could not download ${url}: ${status}")
  endif()
endfunction()
# Points an imported target at an archive, in every configuration it names.
function(runwarden_use_archive target archive)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION ${archive})
  get_target_property(configurations ${target} IMPORTED_CONFIGURATIONS)
  if(configurations)
    foreach(configuration ${configurations})
      set_target_properties(${target} PROPERTIES IMPORTED_LOCATION_${configuration} ${archive})
    endforeach()
  endif()
endfunction()
runwarden_fetch_source(${caf_tarball} ${debian_pool}/a/actor-framework/${caf_tarball}
                       ${caf_sha256})
runwarden_fetch_source(${curl_tarball} ${debian_pool}/c/curl/${curl_tarball} ${curl_sha256})
runwarden_fetch_source(${curl_debian_tarball} ${debian_pool}/c/curl/${curl_debian_tarball}
                       ${curl_debian_sha256})
runwarden_fetch_source(${fmt_tarball} ${debian_pool}/f/fmtlib/${fmt_tarball} ${fmt_sha256})
runwarden_fetch_source(${spdlog_tarball} ${debian_pool}/s/spdlog/${spdlog_tarball}
                       ${spdlog_sha256})

set(external_cmake_args -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=${static_prefix}
    -DCMAKE_INSTALL_LIBDIR=lib -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
if(CMAKE_TOOLCHAIN_FILE)
  list(APPEND external_cmake_args -DCMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE})
endif()

# CAF's core only: runwarden uses no libcaf_io (its sockets are Boost.Asio's).
ExternalProject_Add(caf_static
  URL ${RUNWARDEN_SOURCE_CACHE}/${caf_tarball} URL_HASH SHA256=${caf_sha256}
  DOWNLOAD_EXTRACT_TIMESTAMP ON
  CMAKE_ARGS ${external_cmake_args} -DCAF_BUILD_STATIC_ONLY=ON -DCAF_NO_IO=ON
             -DCAF_NO_EXAMPLES=ON -DCAF_NO_TOOLS=ON -DCAF_NO_UNIT_TESTS=ON -DCAF_NO_OPENSSL=ON
             -DCAF_NO_PYTHON=ON -DCAF_NO_OPENCL=ON -DCAF_NO_SUMMARY=ON
             -DCAF_NO_COMPILER_CHECK=ON
  BUILD_BYPRODUCTS ${static_prefix}/lib/libcaf_core_static.a)
# runwarden compiles against Debian's CAF headers (libcaf-dev), as the release build does;
# the library built here must have been built from the same.
set(same_headers ${CMAKE_CURRENT_LIST_DIR}/same-headers.sh)
ExternalProject_Add_Step(caf_static same_headers
  COMMAND ${same_headers} ${static_prefix}/include/caf /usr/include/caf DEPENDEES install)
add_library(CAF::core STATIC IMPORTED GLOBAL)
set_target_properties(CAF::core PROPERTIES
  IMPORTED_LOCATION ${static_prefix}/lib/libcaf_core_static.a)
target_link_libraries(CAF::core INTERFACE Threads::Threads)

# libcurl for HTTP and HTTPS over OpenSSL, with Debian's patches of bookworm's curl (all of
# its series but the GnuTLS and NSS flavours'). No CA bundle is compiled in: the paths differ
# between distributions, so src/ports/http/curl_transfer.cpp finds the system's at run time.
set(curl_patch ${CMAKE_CURRENT_LIST_DIR}/apply-debian-patches.sh)
# What curl's build learns by running a test program, which it skips when cross-compiling
# (the arm64 build): the values its native build finds with glibc, on any architecture.
set(curl_cross_args)
if(CMAKE_CROSSCOMPILING)
  set(curl_cross_args -DHAVE_POLL_FINE=1 -DRANDOM_FILE=/dev/urandom)
endif()
ExternalProject_Add(curl_static
  URL ${RUNWARDEN_SOURCE_CACHE}/${curl_tarball} URL_HASH SHA256=${curl_sha256}
  DOWNLOAD_EXTRACT_TIMESTAMP ON
  PATCH_COMMAND ${curl_patch} ${RUNWARDEN_SOURCE_CACHE}/${curl_debian_tarball}
                90_gnutls.patch 99_nss.patch
  CMAKE_ARGS ${external_cmake_args} -DBUILD_SHARED_LIBS=OFF -DBUILD_CURL_EXE=OFF
             -DBUILD_TESTING=OFF -DENABLE_MANUAL=OFF -DHTTP_ONLY=ON -DCURL_USE_OPENSSL=ON
             -DCURL_ZLIB=ON -DCURL_BROTLI=OFF -DCURL_ZSTD=OFF -DUSE_NGHTTP2=OFF
             -DUSE_LIBIDN2=OFF -DCURL_USE_LIBPSL=OFF -DCURL_USE_LIBSSH2=OFF
             -DCURL_USE_GSSAPI=OFF -DCURL_DISABLE_LDAP=ON -DENABLE_ARES=OFF
             -DENABLE_THREADED_RESOLVER=ON -DCURL_CA_BUNDLE=none -DCURL_CA_PATH=none
             -DOPENSSL_USE_STATIC_LIBS=ON -DZLIB_USE_STATIC_LIBS=ON ${curl_cross_args}
  BUILD_BYPRODUCTS ${static_prefix}/lib/libcurl.a)
ExternalProject_Add_Step(curl_static same_headers
  COMMAND ${same_headers} ${static_prefix}/include/curl
          /usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/curl
  DEPENDEES install)
find_package(CURL 7.88 REQUIRED)
runwarden_use_archive(CURL::libcurl ${static_prefix}/lib/libcurl.a)
target_link_libraries(CURL::libcurl INTERFACE OpenSSL::SSL OpenSSL::Crypto ZLIB::ZLIB)

# fmt and spdlog: the sources of Debian's tarballs compiled against Debian's installed headers
# with the definitions of Debian's CMake targets, into archives that take the shared
# objects' place; toml++'s implementation from its header alone.
function(runwarden_extract tarball directory)
  if(NOT EXISTS ${directory})
    file(ARCHIVE_EXTRACT INPUT ${RUNWARDEN_SOURCE_CACHE}/${tarball}
         DESTINATION ${static_prefix}/sources)
  endif()
endfunction()
runwarden_extract(${fmt_tarball} ${static_prefix}/sources/fmtlib-9.1.0+ds1)
runwarden_extract(${spdlog_tarball} ${static_prefix}/sources/spdlog-1.10.0)
find_package(fmt 9.1.0 EXACT REQUIRED CONFIG)
find_package(spdlog 1.10.0 EXACT REQUIRED CONFIG)
find_package(tomlplusplus 3.3 REQUIRED CONFIG)

add_library(runwarden_static_fmt STATIC ${static_prefix}/sources/fmtlib-9.1.0+ds1/src/format.cc
                                        ${static_prefix}/sources/fmtlib-9.1.0+ds1/src/os.cc)
set(spdlog_sources)
foreach(name spdlog stdout_sinks color_sinks file_sinks async cfg)
  list(APPEND spdlog_sources ${static_prefix}/sources/spdlog-1.10.0/src/${name}.cpp)
endforeach()
add_library(runwarden_static_spdlog STATIC ${spdlog_sources})
add_library(runwarden_static_toml STATIC ${CMAKE_CURRENT_LIST_DIR}/toml_implementation.cpp)
target_compile_definitions(runwarden_static_fmt PRIVATE FMT_SHARED)
target_compile_definitions(runwarden_static_spdlog PRIVATE
                           SPDLOG_SHARED_LIB SPDLOG_COMPILED_LIB SPDLOG_FMT_EXTERNAL)
target_compile_definitions(runwarden_static_toml PRIVATE
                           TOML_HEADER_ONLY=0 TOML_SHARED_LIB=1 TOML_IMPLEMENTATION)
foreach(library fmt spdlog toml)
  # Not runwarden's code: no -Werror on it.
  target_compile_options(runwarden_static_${library} PRIVATE -w)
  set_target_properties(runwarden_static_${library} PROPERTIES
                        ARCHIVE_OUTPUT_DIRECTORY ${static_prefix}/lib)
endforeach()

runwarden_use_archive(fmt::fmt ${static_prefix}/lib/librunwarden_static_fmt.a)
runwarden_use_archive(spdlog::spdlog ${static_prefix}/lib/librunwarden_static_spdlog.a)
runwarden_use_archive(tomlplusplus::tomlplusplus
                      ${static_prefix}/lib/librunwarden_static_toml.a)

# Everything above, built before runwarden links (CMakeLists.txt adds the dependency).
add_custom_target(runwarden_static_dependencies)
add_dependencies(runwarden_static_dependencies caf_static curl_static runwarden_static_fmt
                 runwarden_static_spdlog runwarden_static_toml)

# Points the imported targets named, and every imported target they link, at the static
# archive beside the shared object CMake's package files name (libX.so.N -> libX.a).
function(runwarden_prefer_static)
  foreach(target ${ARGN})
    if(NOT TARGET ${target})
      continue()
    endif()
    get_property(seen GLOBAL PROPERTY runwarden_static_seen)
    if(target IN_LIST seen)
      continue()
    endif()
    set_property(GLOBAL APPEND PROPERTY runwarden_static_seen ${target})
    get_target_property(imported ${target} IMPORTED)
    if(NOT imported)
      continue()
    endif()
    get_target_property(configurations ${target} IMPORTED_CONFIGURATIONS)
    set(properties IMPORTED_LOCATION)
    if(configurations)
      foreach(configuration ${configurations})
        list(APPEND properties IMPORTED_LOCATION_${configuration})
      endforeach()
    endif()
    foreach(property ${properties})
      get_target_property(location ${target} ${property})
      if(location MATCHES "\\.so(\\.[0-9.]+)?$")
        string(REGEX REPLACE "\\.so(\\.[0-9.]+)?$" ".a" archive ${location})
        if(NOT EXISTS ${archive})
          message(FATAL_ERROR "${target}: no static archive beside ${location}")
        endif()
        set_target_properties(${target} PROPERTIES ${property} ${archive})
      endif()
    endforeach()
    get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
    if(links)
      # Package files wrap private dependencies as $<LINK_ONLY:name>.
      string(REGEX REPLACE "\\$<LINK_ONLY:([^>]+)>" "\\1" links "${links}")
      runwarden_prefer_static(${links})
    endif()
  endforeach()
endfunction()
