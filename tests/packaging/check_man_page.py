#!/usr/bin/env python3
"""The man page runwarden(8) against Debian's tools and against the program itself.

groff -ww and man --warnings (the check lintian runs) must print nothing for the roff
source; then the page, rendered by man, must name every subcommand and every flag that the
binary's own --help lists, walking the subcommands recursively, so a flag added to the
program without a line in the page fails here.

usage: check_man_page.py RUNWARDEN_BINARY MAN_PAGE_SOURCE
"""
import os
import re
import subprocess
import sys

binary, page = sys.argv[1], sys.argv[2]
environment = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="1000", MAN_KEEP_FORMATTING="")
failures = []


def warnings_of(command):
    run = subprocess.run(command, capture_output=True, text=True, env=environment)
    if run.returncode != 0 or run.stderr.strip():
        failures.append(f"{' '.join(command)} exited {run.returncode}:\n{run.stderr}")


warnings_of(["groff", "-ww", "-man", "-z", page])
# lintian's manpage check runs this command (lintian/checks/documentation/manual.pm).
warnings_of(["man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", page])

rendered = subprocess.run(["man", "--no-hyphenation", "--no-justification", "-P", "cat",
                           "-l", page], capture_output=True, text=True, env=environment,
                          check=True).stdout
rendered = re.sub(".\b", "", rendered)  # overstrike bold and underline, if any


def help_of(path):
    run = subprocess.run([binary, *path, "--help"], capture_output=True, text=True)
    assert run.returncode == 0, f"{path} --help exited {run.returncode}: {run.stderr}"
    return run.stdout


def walk(path):
    """Checks the flags of `path` and recurses into its subcommands."""
    section = None
    for line in help_of(path).splitlines():
        if line in ("Options:", "Subcommands:", "Positionals:"):
            section = line
            continue
        match = re.match(r"^  (\S+)", line)
        if not match:
            continue
        word = match.group(1)
        if section == "Options:":
            for flag in word.split(","):
                if flag.startswith("--") and flag not in rendered:
                    failures.append(f"runwarden {' '.join(path)}: flag {flag} is not in the page")
        elif section == "Subcommands:":
            name = " ".join([*path, word])
            if not re.search(rf"\b{re.escape(name)}\b", rendered):
                failures.append(f"subcommand `runwarden {name}` is not in the page")
            walk([*path, word])


walk([])
print("\n".join(failures) or "man page: no warnings, every subcommand and flag documented")
sys.exit(1 if failures else 0)
