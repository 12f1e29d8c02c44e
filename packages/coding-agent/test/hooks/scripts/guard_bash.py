#!/usr/bin/env python3
"""PreToolUse: refuse destructive shell commands (exit 2, the reason on stderr)."""
import json
import sys

event = json.load(sys.stdin)
if event.get("tool_name") == "Bash":
    command = event["tool_input"].get("command", "")
    if "rm -rf" in command:
        print(f"Refusing to run {command!r}: rm -rf is not allowed in this project.", file=sys.stderr)
        sys.exit(2)
sys.exit(0)
