#!/usr/bin/env python3
"""PostToolUse on Write|Edit: tell the model about trailing spaces in what it wrote."""
import json
import sys

event = json.load(sys.stdin)
path = event["tool_input"]["file_path"]
with open(path) as handle:
    lines = handle.read().splitlines()
bad = [str(number) for number, line in enumerate(lines, 1) if line != line.rstrip()]
if bad:
    print(json.dumps({"decision": "block", "reason": f"{path} has trailing spaces on line(s) {', '.join(bad)}."}))
