#!/usr/bin/env bash
# Installs the reference tools the benchmarks compare against (sqlite3, hledger) and builds the
# release binary. Run as root (or with sudo) from anywhere:  bash Benchmarks/setup.sh
# Then:  python3 Benchmarks/run.py --binary .build/release/expenses
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
command -v hledger >/dev/null 2>&1 || need+=(hledger)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need+=(libsqlite3-dev)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}"
fi
sqlite3 --version
hledger --version

swift build -c release --static-swift-stdlib --product expenses "$@"
echo "binary: $(swift build -c release --static-swift-stdlib --show-bin-path "$@")/expenses"
