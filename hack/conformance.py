#!/usr/bin/env python3
"""Run ../shared/tools/conformance-check --per-object over the built binary.

Every case of ../shared/conformance must pass, each expectation checked on the object
it belongs to, the way the upstream helpers match. The tool itself runs a case that
asserts an implementation lacking an Extended feature with that implementation's
feature set (the case's supported_features, passed as --supported-features), and a
case whose upstream test changes or deletes an object (expect_stage after-mutation)
is checked on what holds on the manifests as given: the Go tests in
analyze/conformance_mutations_test.go make the change and assert the rest.

Usage: hack/conformance.py PATH/TO/kubectl-gwtls
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared")
CHECK = os.path.join(SHARED, "tools", "conformance-check")
CORPUS = os.path.join(SHARED, "conformance")


def after_mutation_cases():
    """The cases only partly checkable from their manifests, for the summary."""
    out = []
    for name in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, name, "assertions.json")
        if os.path.isfile(path) and json.load(open(path)).get("expect_stage") == "after-mutation":
            out.append(name)
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    p = subprocess.run([sys.executable, CHECK, binary, "--per-object"], capture_output=True, text=True)
    print(p.stdout, end="")
    print(p.stderr, end="", file=sys.stderr)
    m = re.search(r"^conformance corpus: (\d+) passed, (\d+) failed$", p.stdout, re.M)
    if p.returncode != 0 or not m or m.group(2) != "0":
        print("conformance: the per-object check failed (exit %d)" % p.returncode, file=sys.stderr)
        return 1
    if int(m.group(1)) == 0:
        print("conformance: no case was checked", file=sys.stderr)
        return 1
    partial = after_mutation_cases()
    if partial:
        print("checked on their manifests as given (the change is in analyze/conformance_mutations_test.go): " + ", ".join(partial))
    print("conformance cases: %s passed, 0 failed (per object)" % m.group(1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
