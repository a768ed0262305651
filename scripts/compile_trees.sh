#!/usr/bin/env bash
# The proof that a change leaves the compiler's output byte-identical: compile the Kubernetes, Elixir,
# tldr (first 1,000 pages) and Typer corpora from ../shared/corpora into fresh repos with this
# checkout's wikigen (the real CLI, offline engine, --batch) and print each compiled content/ tree id.
# Run it before and after a change and compare the ids. Not run by CI (minutes per corpus on 2 cores).
# Typer's repo gets the wikigen.yml of scripts/bench_quality.py's SETTINGS: its release-notes.md is
# over the default caps.input_bytes.
#
#   scripts/compile_trees.sh [OUT_DIR]          # CORPORA="k8s elixir" to pick corpora
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${WIKIGEN_SHARED:-$ROOT/../shared}
OUT=${1:-$(mktemp -d)}
PY=${PYTHON:-$ROOT/.venv/bin/python}
export PYTHONPATH=$ROOT GIT_AUTHOR_NAME=T GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=T \
  GIT_COMMITTER_EMAIL=t@example.invalid GIT_AUTHOR_DATE=2024-01-01T00:00:00Z GIT_COMMITTER_DATE=2024-01-01T00:00:00Z
for corpus in ${CORPORA:-k8s elixir tldr typer}; do
  case $corpus in
    k8s) src=$SHARED/corpora/k8s-concepts/content/en/docs/concepts; limit=100000 ;;
    elixir) src=$SHARED/corpora/elixir-guide/content; limit=100000 ;;
    tldr) src=$SHARED/corpora/tldr-pages/pages; limit=1000 ;;
    typer) src=$SHARED/corpora/typer-docs/content; limit=100000 ;;
    *) echo "unknown corpus $corpus (k8s, elixir, tldr, typer)" >&2; exit 2 ;;
  esac
  repo=$OUT/$corpus
  rm -rf "$repo"; mkdir -p "$repo"; git -C "$repo" init -q -b main
  (cd "$src" && find . -name "*.md" | sort | sed -n "1,${limit}p") | while read -r f; do
    mkdir -p "$repo/content/sources/knowledge/$(dirname "$f")"
    cp "$src/$f" "$repo/content/sources/knowledge/$f"
  done
  if [ "$corpus" = typer ]; then printf 'caps:\n  input_bytes: 175000\n' > "$repo/wikigen.yml"; fi
  git -C "$repo" add -A; git -C "$repo" commit -q -m import
  start=$(date +%s)
  "$PY" -m wikigen -C "$repo" compile --batch --engine offline > "$repo.compile.log" 2>&1 \
    || { echo "$corpus: compile failed, see $repo.compile.log" >&2; exit 1; }
  echo "$corpus content tree $(git -C "$repo" rev-parse HEAD:content) ($(( $(date +%s) - start )) s)"
done
