#!/usr/bin/env python3
"""Print the records of lm-evaluation-harness --log_samples files.

This is the status-quo script: the loop people write to look at a samples
file, kept to what a researcher writes in a few minutes, with the standard
library only (such scripts reach for json, not pandas; pandas would also
read the whole file before printing a line). scripts/bench times it beside
evalview, less, lnav and VisiData, run as a user pages its output:

    python3 scripts/statusquo.py samples_gsm8k_2025-06-01T09-00-01.jsonl | less

Each record prints two lines: its doc_id, filter, metrics and filtered
response, then the head of its question (or of its prompt).
"""
import json
import signal
import sys

# Quit quietly when the pager does, instead of a BrokenPipeError.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def question(r):
    doc = r.get("doc") or {}
    for key in ("question", "query", "problem", "input", "prompt", "text"):
        if isinstance(doc.get(key), str):
            return doc[key]
    args = r.get("arguments") or []
    if isinstance(args, dict):  # {"gen_args_0": {"arg_0": prompt, ...}}
        args = [list(a.values()) for a in args.values()]
    return str(args[0][0]) if args else ""


for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            metrics = " ".join(f"{m}={r.get(m)}" for m in r.get("metrics", []))
            print(f"doc_id {r['doc_id']} | {r.get('filter', '')} | {metrics} | {str(r.get('filtered_resps'))[:80]}")
            print("    " + " ".join(question(r).split())[:200])
