# What a host program needs to embed runwarden (component "development"): the core's static
# libraries (not the daemon's layer: no CLI, control API or simulation, so no gRPC), the public headers (include/runwarden/), and a CMake package, so that
#   find_package(runwarden 0.1 REQUIRED)
#   target_link_libraries(host PRIVATE runwarden::runwarden)
# works against an installation. The package finds runwarden's own dependencies, CAF
# included (cmake/FindCAF.cmake, installed beside it). The demo runner
# is installed here too, so that the example host (examples/embedded_host) finds it under
# libexec/runwarden. These rules are left out of a full install, so the Debian package
# (Packaging.cmake) keeps holding the daemon only; install them by their component:
#
#   cmake --install build --prefix /opt/runwarden --component development

include(CMakePackageConfigHelpers)

set(runwarden_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/runwarden)

install(TARGETS runwarden_core runwarden_journal_proto EXPORT runwardenTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development EXCLUDE_FROM_ALL)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/runwarden
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development EXCLUDE_FROM_ALL)
install(PROGRAMS $<TARGET_FILE:runwarden-demo-runner>
        DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/runwarden COMPONENT development EXCLUDE_FROM_ALL)
install(EXPORT runwardenTargets NAMESPACE runwarden:: DESTINATION ${runwarden_cmake_dir}
        COMPONENT development EXCLUDE_FROM_ALL)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/runwardenConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/runwardenConfig.cmake
                              INSTALL_DESTINATION ${runwarden_cmake_dir}
                              PATH_VARS CMAKE_INSTALL_LIBEXECDIR)
# One API per minor version while runwarden is 0.x.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/runwardenConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/runwardenConfig.cmake
              ${PROJECT_BINARY_DIR}/runwardenConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindCAF.cmake
        DESTINATION ${runwarden_cmake_dir} COMPONENT development EXCLUDE_FROM_ALL)
