#!/usr/bin/python3
"""Holds runwarden's style as a program does, beside the layer check (check_layers.py).

Four checks over every C++ file of the checkout (src/, actors/, messages/, include/, demo/,
tests/, bench/, fuzz/, examples/):
  format    clang-format, with the checkout's .clang-format, would change nothing;
  columns   no line is longer than 100 columns (clang-format leaves long string literals
            and comments it cannot break, so this is checked on its own);
  stale     no comment names a document outside the repository (the design notes and issue
            tracker the project was built from): a reader of the checkout cannot open them;
  length    no function is longer than FUNCTION_LINES_MAX lines. The longest are listed
            either way, so that the next one to split is in sight.

Usage: check_tidy.py [ROOT]        check the checkout at ROOT (default: this script's ..)
       check_tidy.py --self-test   plant one fault of each kind in a copy of a file and
                                   check that each is caught, so the check cannot silently pass
       check_tidy.py --fix [ROOT]  apply clang-format in place
Exits 0 when clean, 1 naming each fault.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

DIRECTORIES = ["src", "actors", "messages", "include", "demo", "tests", "bench", "fuzz",
               "examples"]
COLUMNS_MAX = 100
FUNCTION_LINES_MAX = 120
LONGEST_LISTED = 10
CLANG_FORMAT = "clang-format-14"

# Words that point outside the checkout: the shared design notes and the issue tracker.
STALE = re.compile(r"\b(DESIGN\.md|STYLE\.md|shared notes|\.\./shared|issue \d+|issues? #\d+)")
COMMENT = re.compile(r"//.*$")


def cpp_files(root):
    for directory in DIRECTORIES:
        for base, dirs, names in os.walk(os.path.join(root, directory)):
            dirs[:] = [d for d in dirs if d not in ("data", "__pycache__")]
            for name in sorted(names):
                if name.endswith((".cpp", ".hpp")):
                    yield os.path.join(base, name)


def format_faults(root, files):
    faults = []
    for start in range(0, len(files), 100):
        batch = files[start:start + 100]
        run = subprocess.run([CLANG_FORMAT, "--dry-run", "--Werror", "--style=file", *batch],
                             cwd=root, capture_output=True, text=True)
        if run.returncode != 0:
            named = sorted({line.split(":", 1)[0] for line in run.stderr.splitlines()
                            if ": error:" in line})
            faults += [f"{os.path.relpath(n, root)}: not as clang-format lays it out"
                       for n in named] or [run.stderr.strip()]
    return faults


def line_faults(path, text, shown):
    faults = []
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > COLUMNS_MAX:
            faults.append(f"{shown}:{number}: {len(line)} columns (at most {COLUMNS_MAX})")
        comment = COMMENT.search(line)
        if comment and (stale := STALE.search(comment.group(0))):
            faults.append(f"{shown}:{number}: names '{stale.group(1)}', outside the checkout")
    return faults


# A function body opens where a statement that starts at the outer indentation (0, or 2
# inside a class) and is not a namespace, class, control statement or initializer ends in
# "{" after a ")", and closes at the next "}" at that indentation. Good enough to rank; the
# compiler is the judge of the rest.
NOT_A_FUNCTION = re.compile(r"^\s*(namespace|struct|class|enum|extern|union|if|for|while|"
                            r"switch|else|do|return|case|template)\b|=\s*\[|=\s*$")


def function_lengths(path, text, shown):
    lengths = []
    lines = text.splitlines()
    index = 0
    start = 0  # the line where the current statement began
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        before = COMMENT.sub("", lines[index - 1]).strip() if index else ""
        if not before or before.endswith((";", "{", "}", ":")) or before.startswith("#"):
            start = index
        first = lines[start]
        first_indent = len(first) - len(first.lstrip(" "))
        statement = " ".join(l.strip() for l in lines[start:index + 1])
        if (stripped.endswith("{") and ")" in statement and first_indent <= 2 and
                not first.lstrip().startswith(("//", "#", "}")) and
                not NOT_A_FUNCTION.search(statement)):
            closing = " " * first_indent + "}"
            end = index + 1
            while end < len(lines) and not (lines[end].startswith(closing) and
                                            not lines[end].startswith(closing[:-1] + " ")):
                end += 1
            name = re.search(r"([\w:~]+)\s*\(", statement)
            lengths.append((end - start + 1, f"{shown}:{start + 1}",
                            name.group(1) if name else statement[:40]))
            index = end
            start = end + 1
        index += 1
    return lengths


def check(root):
    files = sorted(cpp_files(root))
    faults = format_faults(root, files)
    lengths = []
    for path in files:
        shown = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        faults += line_faults(path, text, shown)
        lengths += function_lengths(path, text, shown)
    lengths.sort(reverse=True)
    print(f"the {LONGEST_LISTED} longest functions of {len(files)} files:")
    for count, where, name in lengths[:LONGEST_LISTED]:
        print(f"  {count:4d} lines  {name}  ({where})")
    faults += [f"{where}: {name} is {count} lines (at most {FUNCTION_LINES_MAX})"
               for count, where, name in lengths if count > FUNCTION_LINES_MAX]
    return faults


def self_test(root):
    """Each planted fault must be caught, by its own check, in a copy of a clean file; the
    clean file itself must pass."""
    clean = "namespace x {\n\nint f(int a) {\n  a += 2;\n  return a;\n}\n\n}  // namespace x\n"
    plants = {
        "nothing": (lambda text: text, None),
        "format": (lambda text: text.replace("{\n", "{   \n\n\n\n", 1), "clang-format"),
        "columns": (lambda text: text + "// " + "x" * COLUMNS_MAX + "\n", "columns (at most"),
        "stale": (lambda text: text + "// as DESIGN.md says\n", "outside the checkout"),
        "length": (lambda text: text + "void planted() {\n" + "  step();\n" * FUNCTION_LINES_MAX
                   + "}\n", "lines (at most"),
    }
    formatted = subprocess.run([CLANG_FORMAT, "--style=file", "--assume-filename=x.cpp"],
                               cwd=root, input=clean, capture_output=True, text=True,
                               check=True).stdout
    failed = []
    for kind, (plant, marker) in plants.items():
        with tempfile.TemporaryDirectory() as copy:
            shutil.copy(os.path.join(root, ".clang-format"), copy)
            os.makedirs(os.path.join(copy, "src"))
            with open(os.path.join(copy, "src", "planted.cpp"), "w", encoding="utf-8") as handle:
                handle.write(plant(formatted))
            faults = check(copy)
            caught = any(marker in fault for fault in faults) if marker else not faults
            print(f"planted {kind}: {'as expected' if caught else 'WRONG'} {faults}")
            if not caught:
                failed.append(kind)
    return failed


def main(argv):
    arguments = argv[1:]
    root_of = lambda rest: rest[0] if rest else os.path.join(os.path.dirname(__file__), "..")
    if arguments[:1] == ["--self-test"]:
        return 1 if self_test(root_of(arguments[1:])) else 0
    if arguments[:1] == ["--fix"]:
        root = root_of(arguments[1:])
        files = sorted(cpp_files(root))
        for start in range(0, len(files), 100):
            subprocess.run([CLANG_FORMAT, "-i", "--style=file", *files[start:start + 100]],
                           cwd=root, check=True)
        return 0
    faults = check(root_of(arguments))
    for fault in faults:
        print(fault)
    print(f"{len(faults)} faults" if faults else "tidy")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
