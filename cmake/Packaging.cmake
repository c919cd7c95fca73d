# Install rules and the Debian package (`cpack -G DEB` in a build directory, or
# `cmake --build build --target package`). The package follows Debian policy as lintian
# checks it (tests/packaging/package_lifecycle.sh): the binary stripped in /usr/bin, the
# systemd unit, the documented config and the needrestart override as conffiles, the man page and the copyright and
# changelog files compressed in their places, dependencies computed by dpkg-shlibdeps.

include(GNUInstallDirs)

set(runwarden_package_dir ${PROJECT_SOURCE_DIR}/packaging/debian)
set(runwarden_doc_dir ${CMAKE_INSTALL_DATAROOTDIR}/doc/runwarden)
set(runwarden_package_staging ${PROJECT_BINARY_DIR}/package-files)

install(TARGETS runwarden RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The keeper, which `runwarden run` execs from here (src/keeper/keeper_program.hpp): a
# helper program, not a command of its own.
install(TARGETS runwarden-keeper RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/runwarden)
# The demo runner, to try runwarden out or check an installation: a helper program, not a
# command of its own, hence libexec (Debian policy 9.1.1).
install(TARGETS runwarden-demo-runner RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/runwarden)
# Absolute: the unit and the config live outside the /usr prefix.
install(FILES ${PROJECT_SOURCE_DIR}/config/runwarden.service DESTINATION /lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/config/runwarden.toml DESTINATION /etc/runwarden)
# needrestart (run by unattended-upgrades) must never restart the service: a restart drains the
# runner and kills jobs that outlast TimeoutStopSec. A conffile, read only if needrestart is
# installed.
install(FILES ${runwarden_package_dir}/needrestart.conf DESTINATION /etc/needrestart/conf.d
        RENAME runwarden.conf)

# Debian wants the man page and the changelog gzip'ed with -9n (no name, no time stamp), so
# that the package builds reproducibly.
find_program(GZIP_BINARY gzip REQUIRED)
function(runwarden_gzip source output)
  add_custom_command(OUTPUT ${output}
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${runwarden_package_staging}
                     COMMAND ${GZIP_BINARY} -9n --stdout ${source} > ${output}
                     DEPENDS ${source} COMMENT "gzip ${source}")
endfunction()
runwarden_gzip(${PROJECT_SOURCE_DIR}/doc/runwarden.8 ${runwarden_package_staging}/runwarden.8.gz)
runwarden_gzip(${runwarden_package_dir}/changelog ${runwarden_package_staging}/changelog.gz)
add_custom_target(runwarden_package_files ALL
                  DEPENDS ${runwarden_package_staging}/runwarden.8.gz
                          ${runwarden_package_staging}/changelog.gz)
install(FILES ${runwarden_package_staging}/runwarden.8.gz
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
install(FILES ${runwarden_package_staging}/changelog.gz ${runwarden_package_dir}/copyright
        DESTINATION ${runwarden_doc_dir})
# Webhook body templates for chat services, to point webhook.template_file at.
install(FILES ${PROJECT_SOURCE_DIR}/config/webhooks/slack.mustache
              ${PROJECT_SOURCE_DIR}/config/webhooks/teams.mustache
        DESTINATION ${runwarden_doc_dir}/examples/webhooks)
# The logind.conf drop-in that lets a shutdown wait for the jobs (run.inhibit_shutdown): an
# example only, since InhibitDelayMaxSec= holds every delay lock on the machine.
install(FILES ${PROJECT_SOURCE_DIR}/config/systemd/logind-runwarden.conf
        DESTINATION ${runwarden_doc_dir}/examples/systemd)
# Prometheus alerting rules for /metrics, with their promtool test file.
install(FILES ${PROJECT_SOURCE_DIR}/config/alerts/runwarden.rules.yml
              ${PROJECT_SOURCE_DIR}/config/alerts/runwarden.rules.test.yml
        DESTINATION ${runwarden_doc_dir}/examples/alerts)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME runwarden)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT
    "runwarden maintainers <maintainers@users.noreply.a-seed-63ad29b6.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "supervises a CI runner and drains it without killing a job")
# CPack puts the summary first and indents these lines as the extended description.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    [=[runwarden keeps a CI runner (GitLab Runner, the GitHub Actions runner, or any
long-lived worker) alive while it is wanted, and lets it go without killing a
job when it is not: on a cloud scale-in, a spot interruption or a service
stop it drains the runner, keeps the lifecycle hook alive, unregisters the
runner from its CI server and completes the hook. It journals every input,
so a restarted runwarden carries a drain on, and tells systemd what it is
doing (Type=notify, watchdog).]=])
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${runwarden_package_dir}/conffiles
                                       ${runwarden_package_dir}/postinst
                                       ${runwarden_package_dir}/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Stripped binaries in the package (Debian policy 10.1); the debug symbols stay in the build.
set(CPACK_STRIP_FILES ON)
include(CPack)
