#!/usr/bin/env bash
# Regenerates the server code from Sources/ExpenseServer/openapi.yaml into
# Sources/ExpenseServer/Generated (committed: see ARCHITECTURE.md, "Generated code").
# With --check: generates into a temporary folder and fails if the committed files differ.
set -euo pipefail
cd "$(dirname "$0")/.."
src=Sources/ExpenseServer
swift build -q --product swift-openapi-generator
generator=$(swift build --show-bin-path)/swift-openapi-generator
if [ "${1:-}" = "--check" ]; then
  out=$(mktemp -d)
  log=$(mktemp)
  trap 'rm -rf "$out" "$log"' EXIT
  "$generator" generate --config "$src/openapi-generator-config.yaml" --output-directory "$out" "$src/openapi.yaml" \
    >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
  if ! diff -r "$out" "$src/Generated"; then
    echo "Sources/ExpenseServer/Generated differs from what openapi.yaml generates: run Tools/generate-openapi.sh" >&2
    exit 1
  fi
  echo "generated OpenAPI code is up to date"
else
  "$generator" generate --config "$src/openapi-generator-config.yaml" --output-directory "$src/Generated" "$src/openapi.yaml"
fi
