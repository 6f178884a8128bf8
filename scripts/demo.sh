#!/usr/bin/env bash
# The main job, on a copy of examples/vault: walk through the canvas tools and show what each
# step did. Run it with `make demo` (which builds easel first).
set -euo pipefail
cd "$(dirname "$0")/.."

EASEL="${EASEL:-${CARGO_TARGET_DIR:-target}/release/easel}"
if [ ! -x "$EASEL" ]; then
  echo "error: $EASEL is not built" >&2
  echo "hint: run 'make demo' (it builds easel first) or 'cargo build --release -p easel-cli'" >&2
  exit 1
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
VAULT="$WORK/vault"
cp -R examples/vault "$VAULT"
export EASEL_VAULT="$VAULT"

bold() { if [ -t 1 ]; then printf '\033[1m%s\033[0m\n' "$*"; else printf '%s\n' "$*"; fi; }
step() { echo; bold "## $1"; }
run() { bold "\$ easel $*"; "$EASEL" "$@"; }
# A step that is meant to fail: show the error and the exit code, then carry on.
fails() { bold "\$ easel $*"; set +e; "$EASEL" "$@"; local code=$?; set -e; echo "(exit code $code)"; }

echo "Easel demo on a copy of examples/vault in $VAULT"

step "1. What canvases are in the vault?"
run canvas list

step "2. Read one: every node and edge, and the revision to guard later writes"
run canvas read Research
REV=$("$EASEL" --json canvas read Research | sed -n 's/^  "rev": "\(.*\)",$/\1/p')

step "3. Check it against JSON Canvas 1.0"
run canvas validate Research

step "4. Add a question below the answer; Easel picks the id, size and a free spot"
NODE=$("$EASEL" canvas add-node Research --type text --text "Which of these matters most for agents?" --x -380 --y 400)
echo "$NODE"
NEW_ID=$(printf '%s' "$NODE" | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p')

step "5. Connect the answer to it; the sides come from the geometry"
run canvas add-edge Research 5e6f708192a3b4c5 "$NEW_ID"

step "6. Colour it with a JSON merge patch"
run canvas update-node Research "$NEW_ID" --data '{"color":"4"}'

step "7. A write based on a stale read is refused, not silently merged"
fails canvas update Research --data - --rev "$REV" <<<'{"edges":[]}'

step "8. Create a new canvas from JSON (ids and edge sides are filled in)"
run canvas write boards/Ideas --data - <<'JSON'
{"nodes":[{"id":"idea","type":"text","text":"# Ideas","x":0,"y":0,"width":300,"height":80},
          {"id":"more","type":"text","text":"Auto-layout for imported diagrams","x":0,"y":200,"width":300,"height":80}],
 "edges":[{"fromNode":"idea","toNode":"more"}]}
JSON
run canvas read boards/Ideas

step "9. Bad input gets a clear error and changes nothing"
printf '{\n\t"nodes":[\n\t\t{"id":"a","type":"text","x":0,"y":0,"width":250,"height":60,"color":"7"}\n\t],\n\t"edges":[\n\t\t{"id":"e","fromNode":"a","toNode":"gone"}\n\t]\n}' > "$VAULT/boards/Broken.canvas"
fails canvas validate boards/Broken
fails canvas add-edge Research "$NEW_ID" no-such-node

step "10. Every change is in the ledger"
run ledger

step "11. Undo them all: Research.canvas is byte for byte what Obsidian wrote"
run undo
run undo
run undo
run undo
if cmp -s examples/vault/Research.canvas "$VAULT/Research.canvas"; then
  echo "Research.canvas is identical to the original"
else
  echo "Research.canvas differs from the original" >&2
  exit 1
fi

step "12. Rewrite a hand-formatted canvas in Obsidian's layout"
printf '{\n  "nodes": [\n    {"id": "x", "type": "text", "text": "pretty", "x": 0, "y": 0, "width": 250, "height": 60}\n  ],\n  "edges": []\n}\n' > "$VAULT/Pretty.canvas"
run canvas fmt Pretty
cat "$VAULT/Pretty.canvas"; echo

step "13. A conversation on a canvas, answered offline by the local model (local:smollm2)"
run canvas write Chat --data - <<'JSON'
{"nodes":[{"id":"q1","type":"text","text":"What is the capital of France? Answer in one sentence.","x":0,"y":0,"width":320,"height":80}],
 "edges":[]}
JSON
# The answer streams to the terminal while it is written into a new node below the question;
# the id of that node is the last line easel prints to stderr.
ask() {
  local args=(thread send Chat "$1" --model local:smollm2 --temperature 0 --max-tokens 60)
  bold "\$ easel ${args[*]}"
  "$EASEL" "${args[@]}" 2> "$WORK/send.log"
  cat "$WORK/send.log"
  sed -n 's/^answer written to node \([0-9a-f]*\) by .*/\1/p' "$WORK/send.log" > "$WORK/answer-id"
  if [ ! -s "$WORK/answer-id" ]; then echo "no answer node was written" >&2; exit 1; fi
  echo "new answer node: $(cat "$WORK/answer-id")"
}
ask q1
A1=$(cat "$WORK/answer-id")

step "14. Follow up below the answer; the model sees the whole thread"
run canvas add-node Chat --type text --text "And of Italy? Answer in one sentence." --id q2 --x 0 --y 500 --width 320 --height 80
run canvas add-edge Chat "$A1" q2 --from-side bottom --to-side top
run thread context Chat q2
ask q2

step "15. The canvas file now holds the conversation: two questions, two answers"
run canvas read Chat
run ledger --limit 6

step "16. Agents: a starter set, and one run on the local model"
run agent new --starter
run agent list
# An agent of our own for the small local model: greedy, short answers, one read-only tool.
mkdir -p "$VAULT/.easel/agents"
cat > "$VAULT/.easel/agents/guide.md" <<'MD'
---
description: Says what is in the vault
tools: [vault_list]
temperature: 0
max_tokens: 120
max_turns: 3
---
You tell people which notes and canvases the vault holds. Call vault_list once, then answer in one sentence.
MD
run agent show guide
# Reading runs freely; a call that would change the vault asks first (here, with no terminal,
# the run would stop with exit 6 and 'easel agent approve SESSION' would go on).
bold "\$ easel agent run guide \"What is in this vault?\" --model local:smollm2"
"$EASEL" agent run guide "What is in this vault?" --model local:smollm2 < /dev/null || echo "(the run ended with exit $?; see the hint above)"
run ledger --limit 3

step "17. The same vault in the browser"
# `easel serve` prints the URL to open (with this launch's token) as its first line. With
# a desktop (or DEMO_SERVE=1) it opens the browser and keeps serving until Ctrl-C; otherwise
# (CI, a terminal over ssh) it shows the URL, checks the page answers, and stops the server.
SERVE_OUT="$(mktemp)"
OPEN=()
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$(uname)" = Darwin ]; then
  OPEN=(--open)
  DEMO_SERVE="${DEMO_SERVE:-1}"
fi
if [ "${DEMO_SERVE:-0}" = 1 ]; then
  bold "\$ easel serve ${OPEN[*]}   (Ctrl-C to stop)"
  "$EASEL" --vault "$VAULT" serve --port 0 "${OPEN[@]}" || true
else
  "$EASEL" --vault "$VAULT" serve --port 0 > "$SERVE_OUT" 2>&1 &
  SERVE_PID=$!
  for _ in $(seq 1 100); do [ -s "$SERVE_OUT" ] && break; sleep 0.05; done
  URL="$(head -n 1 "$SERVE_OUT" | sed 's/^Easel at //')"
  bold "\$ easel serve"
  echo "Easel at $URL"
  if command -v curl >/dev/null 2>&1 && curl -fsS -o /dev/null "$URL" -L -c /dev/null; then
    echo "(the page answers; run 'DEMO_SERVE=1 make demo' to keep it open in your browser)"
  fi
  kill "$SERVE_PID" 2>/dev/null || true
  wait "$SERVE_PID" 2>/dev/null || true
fi
rm -f "$SERVE_OUT"

echo
bold "Done. The vault copy is removed on exit; run the same commands on your own vault with --vault DIR."
