#!/usr/bin/python3
"""The Debian package from build to purge, on this machine, as CI (root) runs it.

Builds the .deb with cpack from a release build directory, runs lintian on it (no error;
each warning must be listed, with its reason, in packaging/debian/lintian-kept-warnings),
checks what dpkg-deb reads from it (computed dependencies, the conffile, a stripped
binary), installs it with dpkg -i, verifies the installed unit with systemd-analyze, runs
/usr/bin/runwarden version, and drains the installed demo runner once under the installed
runwarden and config: readiness and the end are read from NOTIFY_SOCKET as systemd would,
a job is running when the drain starts (runwarden's log says so), and every job finished.
Then the upgrade without a drain (issue 30, case 8): with a job running under the installed
runwarden, the same package rebuilt as version 0.1.1 is installed over it, and the main
process gets SIGUSR2 as the postinst sends it through systemd (`systemctl kill
--kill-whom=main`; no systemd manager runs here, so the test sends it): the keeper executes
the new /usr/bin/runwarden in place, which executes the new keeper program, the job
finishes, and the runner is never signalled until the test itself drains it.
Then dpkg --purge, and nothing of the package may be left: only directories that other
packages own or that hold other files stay, as dpkg's rules keep them.

Needs root, and a machine where runwarden is not installed already (it is never replaced);
otherwise it exits 77, which CTest reports as skipped.
  /usr/bin/python3 tests/packaging/test_debian_package.py BUILD_DIR SOURCE_DIR
"""

import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

BUILD_DIR, SOURCE_DIR = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "e2e"))
from log_reader import LogReader  # noqa: E402
from notify_listener import NotifyListener  # noqa: E402

PACKAGE = "runwarden"
WAIT_S = 60
KEPT_WARNINGS = os.path.join(SOURCE_DIR, "packaging", "debian", "lintian-kept-warnings")
DEMO_RUNNER = "/usr/libexec/runwarden/runwarden-demo-runner"
KEEPER = "/usr/libexec/runwarden/runwarden-keeper"  # `runwarden run` execs it (issue 35)
NEEDRESTART_CONF = "/etc/needrestart/conf.d/runwarden.conf"


def run(*command, **options):
    return subprocess.run(command, capture_output=True, text=True, **options)


def installed_state():
    """dpkg's word for the package ("installed", "config-files", ...), or None."""
    query = run("dpkg-query", "-W", "-f=${db:Status-Status}", PACKAGE)
    return query.stdout if query.returncode == 0 and query.stdout else None


def kept_warnings():
    tags = set()
    with open(KEPT_WARNINGS) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                tags.add(line.split()[0])
    return tags


def wait_for_report_line(report, line):
    """The demo runner's report once it holds `line` (bounded): its lines, in order."""
    deadline = time.monotonic() + WAIT_S
    while True:
        with open(report) as f:
            lines = f.read().splitlines()
        if line in lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


class DebianPackageTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="runwarden-package-")
        built = run("cpack", "-G", "DEB", "-B", self.dir, cwd=BUILD_DIR)
        self.assertEqual(0, built.returncode, built.stdout + built.stderr)
        debs = glob.glob(os.path.join(self.dir, "*.deb"))
        self.assertEqual(1, len(debs), debs)
        self.deb = debs[0]

    def tearDown(self):
        if installed_state() is not None:
            run("dpkg", "--purge", PACKAGE)
        shutil.rmtree(self.dir, ignore_errors=True)

    def check_lintian(self):
        lintian = run("lintian", "--fail-on", "error", "--display-info", self.deb)
        print(lintian.stdout, end="")
        self.assertEqual(0, lintian.returncode, lintian.stdout + lintian.stderr)
        warnings = {line.split()[2] for line in lintian.stdout.splitlines()
                    if line.startswith("W: ")}
        self.assertEqual(set(), warnings - kept_warnings(),
                         "lintian warnings not listed in " + KEPT_WARNINGS)

    def check_needrestart_override(self, path):
        """The override read as needrestart reads conf.d (its needrestart.conf: `eval` of the
        file's text after its own override_rc hash): runwarden.service is deselected, and
        needrestart's own entries stay."""
        perl = ("our %nrconf = (override_rc => {qr(^dbus) => 0});"
                "eval do { local(@ARGV, $/) = $ARGV[0]; <> }; die $@ if $@;"
                "for my $unit (qw(runwarden.service dbus.service cron.service)) {"
                "  my @hits = grep { $unit =~ $_ } keys %{$nrconf{override_rc}};"
                "  my $choice = @hits ? $nrconf{override_rc}{$hits[0]} : 'default';"
                "  print $unit, ' ', $choice, \"\\n\";"
                "}")
        done = run("perl", "-e", perl, path)
        self.assertEqual(0, done.returncode, done.stderr)
        self.assertEqual("runwarden.service 0\ndbus.service 0\ncron.service default\n",
                         done.stdout)

    def check_contents(self):
        depends = run("dpkg-deb", "-f", self.deb, "Depends").stdout
        self.assertIn("libc6 (>=", depends, "dependencies not computed by dpkg-shlibdeps")
        self.assertIn("libsystemd0", depends)
        conffiles = run("dpkg-deb", "--info", self.deb, "conffiles").stdout.split()
        self.assertEqual(["/etc/runwarden/runwarden.toml", NEEDRESTART_CONF], conffiles)
        root = os.path.join(self.dir, "root")
        subprocess.run(["dpkg-deb", "-x", self.deb, root], check=True)
        self.check_needrestart_override(os.path.join(root, NEEDRESTART_CONF.lstrip("/")))
        for program in ["usr/bin/runwarden", KEEPER.lstrip("/"), DEMO_RUNNER.lstrip("/")]:
            sections = run("readelf", "-S", "-W", os.path.join(root, program)).stdout
            self.assertNotIn(".debug_info", sections, program + " is not stripped")
            self.assertNotIn(".symtab", sections, program + " is not stripped")

    def start_installed(self, name, job_seconds, **options):
        """The installed runwarden on the installed demo runner: the process, its control
        socket and the runner's report file."""
        socket_path = os.path.join(self.dir, name + ".sock")
        report = os.path.join(self.dir, name + "-report")
        process = subprocess.Popen(
            ["/usr/bin/runwarden", "run", "--config", "/etc/runwarden/runwarden.toml",
             "--state-dir", os.path.join(self.dir, name + "-state"), "--grpc-listen",
             "unix://" + socket_path, "--http-listen", "none", "--kind", "gitlab", "--",
             DEMO_RUNNER, "--concurrency", "1", "--job-interval", "0", "--job-seconds",
             str(job_seconds), "--report", report],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **options)
        return process, socket_path, report

    def drain_installed_demo(self):
        listener = NotifyListener(self.dir, WAIT_S)
        warden, socket_path, report = self.start_installed(
            "drain", 2, env=dict(os.environ, NOTIFY_SOCKET=listener.path))
        log = LogReader(warden.stdout)
        try:
            listener.wait_for_line("READY=1")
            self.assertTrue(log.wait_for("job 1 started"), "".join(log.lines))
            drained = run("/usr/bin/runwarden", "ctl", "--socket", socket_path, "shutdown",
                          "--reason", "package test", "--wait", timeout=WAIT_S)
            self.assertEqual(0, drained.returncode, drained.stdout + drained.stderr)
            self.assertEqual(0, warden.wait(timeout=WAIT_S), "".join(log.lines))
        finally:
            if warden.poll() is None:
                warden.kill()
                warden.wait()
            listener.close()
            warden.stdout.close()
        self.assertIn("STOPPING=1", listener.lines())
        self.assertTrue(listener.lines()[-1].startswith("STATUS=gone, exit code 0"),
                        listener.lines())
        with open(report) as f:
            events = f.read().split()
        started = events.count("job_started")
        self.assertGreaterEqual(started, 1)
        self.assertEqual(started, events.count("job_finished"), events)
        self.assertNotIn("job_aborted", events)

    def rebuilt_as(self, version):
        """The package unpacked and built again with another version, as a rebuild is."""
        tree = os.path.join(self.dir, "rebuilt")
        subprocess.run(["dpkg-deb", "-R", self.deb, tree], check=True)
        control = os.path.join(tree, "DEBIAN", "control")
        with open(control) as f:
            fields = [("Version: " + version) if line.startswith("Version: ") else line
                      for line in f.read().splitlines()]
        with open(control, "w") as f:
            f.write("\n".join(fields) + "\n")
        rebuilt = os.path.join(self.dir, "runwarden_%s.deb" % version)
        subprocess.run(["dpkg-deb", "--root-owner-group", "-b", tree, rebuilt], check=True,
                       capture_output=True)
        return rebuilt

    def upgrade_in_place_with_a_job_running(self):
        rebuilt = self.rebuilt_as("0.1.1")
        with open("/var/lib/dpkg/info/runwarden.postinst") as f:
            self.assertIn("systemctl kill --kill-whom=main --signal=SIGUSR2", f.read())
        keeper, socket_path, report = self.start_installed("upgrade", 6)
        log = LogReader(keeper.stdout)
        executable = "/proc/%d/exe" % keeper.pid
        try:
            self.assertTrue(log.wait_for("job 1 started"), "".join(log.lines))
            upgraded = run("dpkg", "-i", rebuilt)
            self.assertEqual(0, upgraded.returncode, upgraded.stdout + upgraded.stderr)
            self.assertEqual("installed 0.1.1", run("dpkg-query", "-W", "-f=${db:Status-Status} "
                                                     "${Version}", PACKAGE).stdout)
            self.assertTrue(os.readlink(executable).endswith("(deleted)"), os.readlink(executable))
            os.kill(keeper.pid, signal.SIGUSR2)
            self.assertTrue(log.wait_for("re-executed for an upgrade"), "".join(log.lines))
            self.assertEqual(KEEPER, os.readlink(executable))
            self.assertTrue(log.wait_for("still runs; watching it"), "".join(log.lines))
            events = wait_for_report_line(report, "job_finished 1")
            self.assertIn("job_finished 1", events)
            self.assertEqual([], [e for e in events if e.startswith("signal")], events)
            self.assertEqual(1, sum(e.startswith("pid ") for e in events), events)
            drained = run("/usr/bin/runwarden", "ctl", "--socket", socket_path, "shutdown",
                          "--reason", "package test", "--wait", timeout=WAIT_S)
            self.assertEqual(0, drained.returncode, drained.stdout + drained.stderr)
            self.assertEqual(0, keeper.wait(timeout=WAIT_S), "".join(log.lines))
        finally:
            if keeper.poll() is None:
                keeper.kill()
                keeper.wait()
            keeper.stdout.close()
        with open(report) as f:
            events = f.read().split()
        self.assertEqual(events.count("job_started"), events.count("job_finished"), events)
        self.assertNotIn("job_aborted", events)

    def check_purged(self, files):
        purge = run("dpkg", "--purge", PACKAGE)
        self.assertEqual(0, purge.returncode, purge.stdout + purge.stderr)
        self.assertIsNone(installed_state(), "dpkg still knows the package after --purge")
        left = []
        for path in files:
            if not os.path.lexists(path):
                continue
            shared = os.path.isdir(path) and (run("dpkg", "-S", path).returncode == 0
                                              or os.listdir(path))
            if not shared:
                left.append(path)
        self.assertEqual([], left, "left behind after dpkg --purge")
        for path in ["/etc/runwarden", "/var/lib/runwarden", "/usr/libexec/runwarden",
                     "/usr/share/doc/runwarden"]:
            self.assertFalse(os.path.lexists(path), path + " left behind")

    def test_package_builds_installs_runs_and_purges_cleanly(self):
        self.check_lintian()
        self.check_contents()
        installed = run("dpkg", "-i", self.deb)
        self.assertEqual(0, installed.returncode, installed.stdout + installed.stderr)
        files = run("dpkg", "-L", PACKAGE).stdout.split("\n")
        files = [path for path in files if path.startswith("/")]
        version = run("dpkg-deb", "-f", self.deb, "Version").stdout.strip()
        self.assertEqual("runwarden %s\n" % version, run("/usr/bin/runwarden", "version").stdout)
        verify = run("systemd-analyze", "verify", "/lib/systemd/system/runwarden.service")
        self.assertEqual((0, ""), (verify.returncode, verify.stdout + verify.stderr))
        self.drain_installed_demo()
        self.upgrade_in_place_with_a_job_running()
        self.check_purged(files)


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("SKIPPED: the package test installs with dpkg -i, which needs root")
        sys.exit(77)
    if installed_state() is not None:
        print("SKIPPED: runwarden is installed on this machine (%s); the test never replaces "
              "or removes a package it did not install" % installed_state())
        sys.exit(77)
    unittest.main(argv=[sys.argv[0]], verbosity=2)
