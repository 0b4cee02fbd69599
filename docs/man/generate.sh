#!/usr/bin/env bash
# Regenerates docs/man/expenses.1 from the command definitions, with swift-argument-parser's
# generate-manual plugin (works offline: the plugin ships with the pinned package).
#   docs/man/generate.sh          then: man -l docs/man/expenses.1
#   docs/man/generate.sh --check  fails (exit 1) when the committed page differs from the
#                                 commands' definitions, the date line aside; .ci/run runs it
set -euo pipefail
cd "$(dirname "$0")/../.."
page=docs/man/expenses.1

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *)
    echo "usage: docs/man/generate.sh [--check]" >&2
    exit 64
    ;;
esac

swift package --disable-sandbox plugin generate-manual --configuration debug >&2
generated=.build/plugins/GenerateManual/outputs/expenses/expenses.1

if $check; then
  # The plugin stamps today's date (.Dd); only the rest of the page is compared.
  if diff -u <(grep -v '^\.Dd ' "$page") <(grep -v '^\.Dd ' "$generated") >&2; then
    echo "$page is current"
    exit 0
  fi
  echo "$page is stale: run docs/man/generate.sh" >&2
  exit 1
fi

cp "$generated" "$page"
# Pin the date to the last commit's, so the file only changes with the commands.
date=$(git log -1 --format=%cd --date=format:'%B %-d, %Y' 2>/dev/null || true)
if [ -n "$date" ]; then sed -i "s/^\.Dd .*/.Dd $date/" "$page"; fi
echo "$page"
