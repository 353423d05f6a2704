#!/usr/bin/env python3
"""Print "PASS FAIL TOTAL" for a kunit.py parse --json result.

Skipped tests count as passed; crashed, missing and errored ones as failed.
Also prints each failing test's name to stderr.
"""
import json
import sys


def walk(group, path, out):
    for case in group.get("test_cases", []):
        out.append(("/".join(path + [case["name"]]), case["status"]))
    for sub in group.get("sub_groups", []):
        walk(sub, path + [sub.get("name", "")], out)


def main():
    try:
        with open(sys.argv[1]) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f"ktap-count: {e}", file=sys.stderr)
        print("0 1 1")
        return
    results = []
    walk(data, [], results)
    passed = sum(1 for _, s in results if s in ("PASS", "SKIP"))
    failed = [n for n, s in results if s not in ("PASS", "SKIP")]
    for name in failed:
        print(f"  not ok: {name}", file=sys.stderr)
    print(passed, len(failed), len(results))


main()
