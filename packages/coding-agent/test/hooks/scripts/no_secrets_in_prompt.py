#!/usr/bin/env python3
"""UserPromptSubmit: block prompts that paste a key."""
import json
import sys

event = json.load(sys.stdin)
if "sk-" in event.get("prompt", ""):
    print(json.dumps({"decision": "block", "reason": "The prompt seems to contain an API key; it was not sent."}))
    sys.exit(0)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "Answer in English."}}))
