#!/usr/bin/env python3
"""Stop: the first time the agent stops, ask it to write DONE.txt; let it stop the second time."""
import json
import sys

event = json.load(sys.stdin)
if event.get("stop_hook_active"):
    sys.exit(0)
print(json.dumps({"decision": "block", "reason": "Before you stop, write DONE.txt."}))
