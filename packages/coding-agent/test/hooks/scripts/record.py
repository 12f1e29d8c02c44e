#!/usr/bin/env python3
"""Any event: appends what the hook received (its input, folder and project variables) to hook-log.jsonl."""
import json
import os
import sys

event = json.load(sys.stdin)
entry = {
    "input": event,
    "cwd": os.getcwd(),
    "claude_project_dir": os.environ.get("CLAUDE_PROJECT_DIR"),
    "gantry_project_dir": os.environ.get("GANTRY_PROJECT_DIR"),
    "secret_seen": "GANTRY_HOOK_TEST_SECRET_TOKEN" in os.environ,
}
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "hook-log.jsonl"), "a") as log:
    log.write(json.dumps(entry) + "\n")
