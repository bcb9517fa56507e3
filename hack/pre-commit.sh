#!/bin/sh
# Runs kubectl-gwtls on the files pre-commit (or anyone) passes: `analyze` takes one
# file per -f, so every *.yaml/*.yml argument becomes its own -f; other arguments
# (hook args such as `--fail-on warning`, which pre-commit puts before the files)
# are passed through in order. The hook in .pre-commit-hooks.yaml inlines this same
# loop; use this script for a `language: system` local hook or by hand:
#
#   hack/pre-commit.sh --fail-on warning deploy/gateway.yaml deploy/routes.yaml
#
# KUBECTL_GWTLS names the binary (default kubectl-gwtls on PATH).
# Exit codes are analyze's: 0 clean, 1 findings, 2 usage or load errors.
set -eu

files=0
for a do
	case "$a" in
	*.yaml | *.yml)
		set -- "$@" -f "$a"
		files=$((files + 1))
		;;
	*) set -- "$@" "$a" ;;
	esac
	shift
done
# No manifests: nothing to lint (analyze without -f would read the cluster).
[ "$files" -gt 0 ] || exit 0
exec "${KUBECTL_GWTLS:-kubectl-gwtls}" analyze -o github "$@"
