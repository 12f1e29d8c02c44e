#!/usr/bin/env python3
"""PreToolUse on Read|Edit|Write: deny any .env file, through the JSON permission decision."""
import json
import sys

event = json.load(sys.stdin)
path = event.get("tool_input", {}).get("file_path", "")
if path.endswith(".env"):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": f"{path} holds secrets",
        }
    }))
