#!/usr/bin/env python3
"""Run ../shared/tools/conformance-check over the built binary and hold it to account.

Every case that asserts status must pass, except the ones listed here with the reason
the static input cannot produce the asserted state. A listed case that starts passing
fails this script too, so the list stays true.

Cases that assert the behaviour of an implementation lacking an Extended feature are
run a second time with that implementation's feature set (--supported-features), the
way a user describes such an implementation, and must pass then.
"""
import os
import re
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "..", "..", "shared", "tools", "conformance-check")

# The upstream test reaches this state only after changing or deleting an object.
AFTER_MUTATION = {
    "tcproute-reference-grant": "asserts RefNotPermitted after the test deletes the ReferenceGrant",
    "udproute-reference-grant": "asserts RefNotPermitted after the test deletes the ReferenceGrant",
    "backendtlspolicy": "asserts NoValidCACertificate/InvalidCACertificateRef after the test updates a policy to a bad CA",
}

# Extended features the upstream test requires the implementation NOT to support.
WITHOUT_FEATURE = {
    "tlsroute-listener-terminate-not-supported": "TLSRouteModeTerminate",
    "tlsroute-listener-mixed-termination-not-supported": "TLSRouteModeMixed",
}
ALL_FEATURES = ["Gateway", "HTTPRoute", "GRPCRoute", "TLSRoute", "TLSRouteModeTerminate", "TLSRouteModeMixed",
                "TCPRoute", "UDPRoute", "ReferenceGrant", "BackendTLSPolicy", "ListenerSet"]


def run_check(binary, only=None):
    args = [sys.executable, CHECK, binary] + (["--only", only] if only else [])
    p = subprocess.run(args, capture_output=True, text=True)
    return p.returncode, p.stdout


def main():
    binary = os.path.abspath(sys.argv[1])
    _, first_out = run_check(binary)
    print(first_out, end="")
    failed = set(re.findall(r"^FAIL (\S+)", first_out, re.M))
    expected = set(AFTER_MUTATION) | set(WITHOUT_FEATURE)
    problems = []
    for case in sorted(failed - expected):
        problems.append("unexpected failure: " + case)
    for case in sorted(expected - failed):
        problems.append("listed as failing but passes (update hack/conformance.py): " + case)
    for case, why in sorted(AFTER_MUTATION.items()):
        print("expected FAIL %s: %s" % (case, why))

    for case, feature in sorted(WITHOUT_FEATURE.items()):
        features = ",".join(f for f in ALL_FEATURES if f != feature)
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write('#!/bin/sh\nexec "%s" "$@" --supported-features %s\n' % (binary, features))
        os.chmod(f.name, os.stat(f.name).st_mode | stat.S_IEXEC)
        code, out = run_check(f.name, only=case)
        os.unlink(f.name)
        ok = code == 0 and "1 passed, 0 failed" in out
        print("%s %s with an implementation lacking %s" % ("PASS" if ok else "FAIL", case, feature))
        if not ok:
            problems.append("%s fails even without %s:\n%s" % (case, feature, out))

    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    m = re.search(r"(\d+) passed, (\d+) failed", first_out)
    ok_cases = int(m.group(1)) + len(WITHOUT_FEATURE) if m else 0
    print("conformance: every case passes except the %d that need a changed object" % len(AFTER_MUTATION))
    print("conformance cases: %d passed, 0 failed, %d skipped" % (ok_cases, len(AFTER_MUTATION)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
