# What the static variant ships (issue 35): a tarball and an .rpm from the same install
# rules, for every Linux but Debian (whose package stays dynamic, cmake/Packaging.cmake).
# Both hold the stripped binary, its keeper program (and the demo runner), the systemd unit,
# the man page, the documented config and the copyright file, in the places systemd-based
# distributions look for them (/usr/lib/systemd/system serves RHEL, Amazon Linux, SUSE and
# merged-/usr Debian and Ubuntu alike).
# The tarball has no top directory, so that `tar -xzf FILE -C /` installs it.
# scripts/release.sh makes both: `cpack -G "TGZ;RPM"` in build-static/.

set(runwarden_doc_dir usr/share/doc/runwarden)
install(TARGETS runwarden RUNTIME DESTINATION usr/bin)
# The keeper, which `runwarden run` execs from here (src/keeper/keeper_program.hpp): a
# helper program, not a command of its own.
install(TARGETS runwarden-keeper RUNTIME DESTINATION usr/libexec/runwarden)
# The demo runner, as in the Debian package, to see runwarden drain before a real runner.
install(TARGETS runwarden-demo-runner RUNTIME DESTINATION usr/libexec/runwarden)
install(FILES ${PROJECT_SOURCE_DIR}/config/runwarden.service DESTINATION usr/lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/config/runwarden.toml DESTINATION etc/runwarden)
install(FILES ${PROJECT_SOURCE_DIR}/doc/runwarden.8 DESTINATION usr/share/man/man8)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright
              ${PROJECT_SOURCE_DIR}/packaging/static/README.static
        DESTINATION ${runwarden_doc_dir})

# x86_64 or aarch64, as RPM and uname spell them.
set(runwarden_architecture ${CMAKE_SYSTEM_PROCESSOR})
if(runwarden_architecture STREQUAL "arm64")
  set(runwarden_architecture aarch64)
endif()

set(CPACK_GENERATOR TGZ RPM)
set(CPACK_PACKAGE_NAME runwarden)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /)
set(CPACK_PACKAGE_FILE_NAME runwarden-${PROJECT_VERSION}-linux-${runwarden_architecture})
set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY OFF)
set(CPACK_PACKAGE_CONTACT
    "runwarden maintainers <maintainers@users.noreply.a-seed-63ad29b6.example>")
set(CPACK_PACKAGE_VENDOR "runwarden maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "supervises a CI runner and drains it without killing a job")
set(CPACK_STRIP_FILES ON)

set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_RELEASE 1)
set(CPACK_RPM_PACKAGE_ARCHITECTURE ${runwarden_architecture})
set(CPACK_RPM_PACKAGE_LICENSE "Proprietary")
set(CPACK_RPM_PACKAGE_GROUP "System Environment/Daemons")
set(CPACK_RPM_PACKAGE_URL "https://runwarden.example")
set(CPACK_RPM_PACKAGE_DESCRIPTION
    [=[runwarden keeps a CI runner (GitLab Runner, the GitHub Actions runner, or any
long-lived worker) alive while it is wanted, and lets it go without killing a
job when it is not. This is the static build: one binary that needs only the
Linux kernel.]=])
# One static binary: nothing to require, nothing to provide but itself.
set(CPACK_RPM_PACKAGE_AUTOREQPROV OFF)
# The config is the administrator's once edited, as a Debian conffile is.
set(CPACK_RPM_USER_FILELIST "%config(noreplace) /etc/runwarden/runwarden.toml")
# Directories other packages (filesystem, systemd, man-db) own.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION
    /usr/libexec /usr/lib/systemd /usr/lib/systemd/system /usr/share/man /usr/share/man/man8)
include(CPack)
