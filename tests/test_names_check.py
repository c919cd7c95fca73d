#!/usr/bin/env python3
"""Fails when a Catch2 test or section name holds a semicolon.

catch_discover_tests hands CTest each name as a CMake list item, and CMake splits a list at
every ';': the halves match no test, so CTest runs an empty selection and calls it passed.
Seventeen tests ran nowhere but in the binary itself until this check existed.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
name = re.compile(r'\b(?:TEST_CASE|SECTION|SCENARIO)\(\s*"((?:[^"\\]|\\.)*)"')
found = [f"{path.relative_to(root)}:{text[:match.start()].count(chr(10)) + 1}: {match.group(1)}"
         for path in sorted(root.rglob("*.cpp"))
         for text in [path.read_text(encoding="utf-8")]
         for match in name.finditer(text) if ";" in match.group(1)]
for line in found:
    print(f"a test name with ';', which CTest splits into tests that never run: {line}")
sys.exit(1 if found else 0)
