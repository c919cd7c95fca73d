#!/usr/bin/python3
"""Holds runwarden's layers: a file includes only from its own layer or a lower one.

The table below is the one place the order is written (README.md, "Layers", explains it).
Each entry is a level, lowest first; a file may include files of its own level and of the
levels before it, never after. The pure machines and parsers are one layer in DESIGN.md, but
they include each other, so each pure module is a level of its own and their order is
explicit too: supervision may not include drain, drain may include supervision.

Every C++ file under src/, actors/, messages/ and include/ must belong to a level, so a new
directory cannot slip past the check unplaced. An #include is resolved as the compiler would
find it (beside the including file, then from the checkout's root, then include/); the
build tree's generated headers (protobuf, the version) sit below everything; whatever else
is left unresolved belongs to a library and is not ours to check.

Usage: check_layers.py [ROOT]      check the checkout at ROOT (default: this script's ..)
       check_layers.py --self-test plant upward includes in copies of the checkout's tree
                                   and check that each is caught, so the check cannot
                                   silently pass
Exits 0 when every include runs down or sideways, 1 naming each one that runs up.
"""

import os
import re
import shutil
import sys
import tempfile

GENERATED = "generated headers (protobuf, version)"

# (level, directories), lowest first. DESIGN.md's layers: util; the pure machines and
# parsers; messages; ports; actors; the assembly; control; sim; app.
LEVELS = [
    ("generated", [GENERATED]),
    ("util", ["src/util", "src/logging"]),
    # The pure machines and parsers, each on those before it.
    ("pure: runner", ["src/runner"]),
    ("pure: supervision", ["src/supervision"]),
    ("pure: drain", ["src/drain"]),
    ("pure: retirement", ["src/retirement"]),
    ("pure: journal", ["src/journal"]),
    ("pure: scrape", ["src/scrape"]),
    ("pure: webhook", ["src/webhook"]),
    ("pure: unregister", ["src/unregister"]),
    ("pure: aws", ["src/aws"]),
    ("pure: azure", ["src/azure"]),
    ("pure: gcp", ["src/gcp"]),
    ("pure: scaling", ["src/scaling"]),
    ("pure: kubernetes", ["src/kubernetes"]),
    ("pure: telemetry", ["src/telemetry"]),
    ("pure: config", ["src/config"]),
    ("messages", ["messages"]),
    ("ports", ["src/ports"]),
    # The keeper: a process of its own on the ports' spawn, below anything with CAF in it.
    ("keeper", ["src/keeper"]),
    ("actors", ["actors"]),
    ("assembly", ["src/assembly", "src/embedding", "include/runwarden"]),
    ("control", ["src/control"]),
    ("sim", ["src/sim"]),
    ("app", ["src/app"]),
]

CHECKED_ROOTS = ("src", "actors", "messages", "include")
SOURCE_SUFFIXES = (".hpp", ".cpp", ".h", ".cc", ".ipp")
GENERATED_NAMES = re.compile(r"(\.pb\.h|^runwarden_version\.hpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def level_of(path):
    """The index into LEVELS of a checkout-relative path, or None when it has none."""
    for index, (_, directories) in enumerate(LEVELS):
        for directory in directories:
            if path == directory or path.startswith(directory + "/"):
                return index
    return None


def resolve(root, including, spelled, quoted):
    """The checkout-relative path an include names, GENERATED, or None for a library's."""
    candidates = []
    if quoted:
        candidates.append(os.path.join(os.path.dirname(including), spelled))
    candidates += [spelled, os.path.join("include", spelled)]
    for candidate in candidates:
        normal = os.path.normpath(candidate)
        if not normal.startswith("..") and os.path.isfile(os.path.join(root, normal)):
            return normal
    if GENERATED_NAMES.search(spelled):
        return GENERATED
    return None


def checked_files(root):
    for top in CHECKED_ROOTS:
        for directory, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(directory, name), root)


def violations(root):
    """Every problem in the checkout at root, one sentence each, in file order."""
    found = []
    for path in sorted(checked_files(root)):
        own = level_of(path)
        if own is None:
            found.append(f"{path}: in no layer; add its directory to LEVELS in "
                         "scripts/check_layers.py")
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as source:
            for number, line in enumerate(source, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                spelled = match.group(2)
                target = resolve(root, path, spelled, match.group(1) == '"')
                if target is None:
                    continue
                theirs = level_of(target)
                if theirs is None:
                    found.append(f"{path}:{number}: includes {spelled}, which is in no layer")
                elif theirs > own:
                    found.append(f"{path}:{number}: includes {spelled}: {LEVELS[own][0]} may "
                                 f"not include {LEVELS[theirs][0]}, a higher layer")
    return found


def check(root):
    found = violations(root)
    for problem in found:
        print(problem)
    if found:
        order = "; ".join(name for name, _ in LEVELS)
        print(f"\n{len(found)} include(s) against the layers (lowest first: {order}). "
              "See README.md, \"Layers\".")
        return 1
    return 0


def copy_tree(root, destination):
    for path in checked_files(root):
        os.makedirs(os.path.join(destination, os.path.dirname(path)), exist_ok=True)
        shutil.copyfile(os.path.join(root, path), os.path.join(destination, path))


def planted(tree, path, text, check_tree):
    """Runs check_tree on tree with text appended to path, then puts path back as it was."""
    full = os.path.join(tree, path)
    original = None
    if os.path.exists(full):
        with open(full, encoding="utf-8") as source:
            original = source.read()
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as source:
        source.write((original or "") + text)
    try:
        return check_tree(tree)
    finally:
        if original is None:
            os.remove(full)
        else:
            with open(full, "w", encoding="utf-8") as source:
                source.write(original)


# Each plant: (what it breaks, file to write, text appended, words the report must contain).
PLANTS = [
    ("util including app", "src/util/duration_text.hpp", '#include "src/app/cli.hpp"\n',
     ["src/util/duration_text.hpp:", "src/app/cli.hpp", "util may not include app"]),
    ("supervision including drain, against the pure order", "src/supervision/restart_type.hpp",
     '#include "src/drain/drain_machine.hpp"\n',
     ["src/supervision/restart_type.hpp:", "pure: supervision may not include pure: drain"]),
    ("actors including sim through a relative path", "actors/warden/warden_actor.cpp",
     '#  include "../../src/sim/fleet_run.hpp"\n',
     ["actors/warden/warden_actor.cpp:", "actors may not include sim"]),
    ("a pure module including messages", "src/scrape/runner_scrape.hpp",
     '#include "messages/http_messages.hpp"\n', ["pure: scrape may not include messages"]),
    ("the public API including control", "include/runwarden/planted.hpp",
     '#include "src/control/control_server.hpp"\n', ["assembly may not include control"]),
    ("a directory missing from the table", "src/unplaced/thing.hpp", "#pragma once\n",
     ["src/unplaced/thing.hpp: in no layer"]),
]


def self_test(root):
    """Plants each violation in a copy of the tree and checks that it is reported, as exactly
    one problem more than the copy had before (the plain check judges the tree itself)."""
    failures = []
    with tempfile.TemporaryDirectory(prefix="check_layers.") as tree:
        copy_tree(root, tree)
        baseline = violations(tree)
        for what, path, text, words in PLANTS:
            found = planted(tree, path, text, violations)
            caught = [problem for problem in found if all(word in problem for word in words)]
            if len(found) != len(baseline) + 1 or not caught:
                failures.append(f"planted {what} in {path}; reported instead: {found}")
    for failure in failures:
        print("self-test: " + failure)
    caught = len(PLANTS) - len(failures)
    print(f"self-test: {caught} of {len(PLANTS)} planted violations caught")
    return 1 if failures else 0


def main(arguments):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if arguments[:1] == ["--self-test"]:
        return self_test(arguments[1] if len(arguments) > 1 else here)
    if len(arguments) > 1 or arguments[:1] and arguments[0].startswith("-"):
        print("usage: check_layers.py [ROOT] | --self-test [ROOT]", file=sys.stderr)
        return 64
    return check(arguments[0] if arguments else here)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
