#!/usr/bin/env python3
"""How often the embedded model's tool calls are right: the Berkeley Function Calling
Leaderboard's `simple` Python category (400 cases), scored by BFCL's own AST checker.

Needs the PyPI package `bfcl-eval` (its data and checker; `pip install bfcl-eval soundfile`) and
an `easel` binary. Each case goes to `easel llm serve` as an OpenAI chat request with the case's
function as the one tool, greedy, `tool_choice` as given (`auto` by default, as BFCL sends its
FC models). Prints a table of the results and the commonest kinds of error.

    python3 scripts/bench-bfcl.py [--easel target/release/easel] [--limit N] [--tool-choice auto|required]
"""

import argparse
import collections
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from importlib import resources

try:
    from bfcl_eval.constants.enums import Language, ModelStyle
    from bfcl_eval.constants.type_mappings import GORILLA_TO_OPENAPI
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
    from bfcl_eval.model_handler.utils import convert_to_tool
except ImportError as e:
    sys.exit(f"bench-bfcl: {e}; install the checker with `pip install bfcl-eval soundfile`")

CATEGORY = "simple_python"
# A model whose tool names BFCL's checker expects with '.' written as '_' (OpenAI's rule for
# names, which easel's API follows too). Only the name mapping of this entry is used.
CHECKER_MODEL = "gpt-5.2-2025-12-11-FC"


def load_cases():
    data = resources.files("bfcl_eval") / "data"
    cases = [json.loads(l) for l in (data / "BFCL_v4_simple_python.json").read_text().splitlines() if l.strip()]
    answers = {
        a["id"]: a["ground_truth"]
        for a in map(json.loads, (data / "possible_answer" / "BFCL_v4_simple_python.json").read_text().splitlines())
    }
    return cases, answers


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(easel, port):
    proc = subprocess.Popen(
        [easel, "llm", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                sys.exit(f"bench-bfcl: easel llm serve stopped: {proc.stderr.read()}")
            time.sleep(0.2)
    proc.kill()
    sys.exit("bench-bfcl: easel llm serve did not answer within 60 s")


def ask(port, messages, tools, tool_choice):
    body = {
        "model": "local:smollm2",
        "messages": messages,
        "tools": tools,
        "tool_choice": tool_choice,
        "temperature": 0,
        "max_tokens": 256,
        "stream": False,
    }
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/chat/completions",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.load(r)


def decode(answer):
    """The calls of an answer as BFCL's checker takes them: [{name: {arg: value}}]."""
    message = answer["choices"][0]["message"]
    calls = []
    for c in message.get("tool_calls") or []:
        try:
            args = json.loads(c["function"]["arguments"] or "{}")
        except json.JSONDecodeError:
            return None
        calls.append({c["function"]["name"]: args})
    return calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--easel", default="target/release/easel")
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases")
    ap.add_argument("--tool-choice", default="auto", choices=["auto", "required"])
    args = ap.parse_args()

    cases, answers = load_cases()
    if args.limit:
        cases = cases[: args.limit]
    port = free_port()
    server = start_server(args.easel, port)
    results = collections.Counter()
    errors = collections.Counter()
    latencies = []
    try:
        for case in cases:
            functions = case["function"]
            # Already in OpenAI's {"type": "function", "function": {...}} form.
            tools = convert_to_tool(functions, GORILLA_TO_OPENAPI, ModelStyle.OPENAI_COMPLETIONS)
            started = time.time()
            answer = ask(port, case["question"][0], tools, args.tool_choice)
            latencies.append(time.time() - started)
            calls = decode(answer)
            if not calls:
                results["no call" if calls == [] else "arguments not JSON"] += 1
                errors["no_call:" + (answer["choices"][0].get("finish_reason") or "?")] += 1
                continue
            check = ast_checker(functions, calls, answers[case["id"]], Language.PYTHON, CATEGORY, CHECKER_MODEL)
            if check["valid"]:
                results["right"] += 1
            else:
                results["wrong"] += 1
                errors[check.get("error_type", "?")] += 1
    finally:
        server.terminate()
        server.wait(timeout=10)

    n = len(cases)
    print(f"BFCL v4 `{CATEGORY}`, {n} cases, local:smollm2 through `easel llm serve`, tool_choice {args.tool_choice}, greedy")
    print()
    print("| result | cases | share |")
    print("|---|---:|---:|")
    for k in ["right", "wrong", "no call", "arguments not JSON"]:
        print(f"| {k} | {results[k]} | {100 * results[k] / n:.1f}% |")
    print()
    print(f"accuracy (BFCL's AST checker): **{100 * results['right'] / n:.1f}%**; median time per case {statistics.median(latencies):.2f} s, total {sum(latencies):.0f} s")
    print()
    print("| commonest errors | cases |")
    print("|---|---:|")
    for k, v in errors.most_common(8):
        print(f"| `{k}` | {v} |")


if __name__ == "__main__":
    main()
