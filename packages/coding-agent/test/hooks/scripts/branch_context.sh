#!/bin/sh
# UserPromptSubmit / SessionStart: plain stdout becomes context for the model.
cat >/dev/null
echo "The project's release branch is called trunk."
