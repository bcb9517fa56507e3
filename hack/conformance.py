#!/usr/bin/env python3
"""Run ../shared/tools/conformance-check --per-object over the built binary.

Every case of ../shared/conformance must pass, each expectation checked on the object
it belongs to, the way the upstream helpers match. The tool itself runs a case that
asserts an implementation lacking an Extended feature with that implementation's
feature set (the case's supported_features, passed as --supported-features), and a
case whose upstream test changes or deletes an object (expect_stage after-mutation)
is checked on what holds on the manifests as given: the Go tests in
analyze/conformance_mutations_test.go make the change and assert the rest.

The corpus comes from a newer upstream commit than the gateway-api module this tool
builds with, so a case's supported_features may name features that module does not
define (HTTPRouteBackendURLRewrite, ...), and --supported-features refuses a name it does
not know. None of those features is one the engine models, so the binary is run through
a wrapper that drops the names it refuses and retries; the summary lists what it dropped.

Usage: hack/conformance.py PATH/TO/kubectl-gwtls
"""
import json
import os
import re
import stat
import subprocess
import sys
import tempfile

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


# The wrapper: runs the binary; while it refuses a --supported-features name as
# unknown, drops that name (logging it) and runs it again.
WRAPPER = r'''#!/usr/bin/env python3
import re, subprocess, sys
BINARY, LOG = %r, %r
args = sys.argv[1:]
while True:
    p = subprocess.run([BINARY] + args, capture_output=True, text=True)
    m = re.search(r'--supported-features: "([^"]+)" is not a Gateway API feature', p.stderr)
    if p.returncode != 2 or not m or "--supported-features" not in args:
        sys.stdout.write(p.stdout)
        sys.stderr.write(p.stderr)
        sys.exit(p.returncode)
    i = args.index("--supported-features") + 1
    names = [n for n in args[i].split(",") if n.strip() != m.group(1)]
    if len(names) == len(args[i].split(",")):
        sys.stderr.write(p.stderr)
        sys.exit(p.returncode)
    args[i] = ",".join(names)
    with open(LOG, "a") as f:
        f.write(m.group(1) + "\n")
'''


def wrapped(binary, log):
    """A script that runs binary as WRAPPER says."""
    f = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
    f.write(WRAPPER % (binary, log))
    f.close()
    os.chmod(f.name, os.stat(f.name).st_mode | stat.S_IEXEC)
    return f.name


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    log = tempfile.NamedTemporaryFile("w", suffix=".log", delete=False).name
    wrapper = wrapped(binary, log)
    try:
        p = subprocess.run([sys.executable, CHECK, wrapper, "--per-object"], capture_output=True, text=True)
        dropped = sorted(set(open(log).read().split()))
    finally:
        os.unlink(wrapper)
        os.unlink(log)
    print(p.stdout, end="")
    print(p.stderr, end="", file=sys.stderr)
    m = re.search(r"^conformance corpus: (\d+) passed, (\d+) failed$", p.stdout, re.M)
    if p.returncode != 0 or not m or m.group(2) != "0":
        print("conformance: the per-object check failed (exit %d)" % p.returncode, file=sys.stderr)
        return 1
    if int(m.group(1)) == 0:
        print("conformance: no case was checked", file=sys.stderr)
        return 1
    if dropped:
        print("supported_features names this build's gateway-api does not define, dropped: " + ", ".join(dropped))
    partial = after_mutation_cases()
    if partial:
        print("checked on their manifests as given (the change is in analyze/conformance_mutations_test.go): " + ", ".join(partial))
    print("conformance cases: %s passed, 0 failed (per object)" % m.group(1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
