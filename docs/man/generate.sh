#!/usr/bin/env bash
# Regenerates docs/man/expenses.1 from the command definitions, with swift-argument-parser's
# generate-manual plugin (works offline: the plugin ships with the pinned package).
#   docs/man/generate.sh        then: man -l docs/man/expenses.1
set -euo pipefail
cd "$(dirname "$0")/../.."
swift package --disable-sandbox plugin generate-manual --configuration debug >&2
cp .build/plugins/GenerateManual/outputs/expenses/expenses.1 docs/man/expenses.1
# The plugin stamps today's date; pin it to the last commit's so the file only changes with the commands.
date=$(git log -1 --format=%cd --date=format:'%B %-d, %Y' 2>/dev/null || true)
if [ -n "$date" ]; then sed -i "s/^\.Dd .*/.Dd $date/" docs/man/expenses.1; fi
echo "docs/man/expenses.1"
