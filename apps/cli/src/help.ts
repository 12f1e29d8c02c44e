import { slashCommandLines } from "./tui/slash-command-list.js";

/** The text of `gantry --help`. */
export function helpText(version: string): string {
	return `gantry ${version} — a coding agent in your terminal

Usage
  gantry [options]                 interactive session (needs a terminal)
  gantry [options] "prompt"        run one prompt, print the answer (also: -p, or a prompt on stdin)
  gantry --mode json "prompt"      every session event as one JSON line
  gantry tools [--json]            list every registered tool, and the rule or mode that decides it
  gantry sessions [--json]         this folder's sessions, newest first (ids for --resume)
  gantry rewind SESSION [N]        list a session's prompts with the files each changed; with N, go back
                                   to before prompt N (--code or --conversation: only that)
  gantry trust                     trust this folder: its .gantry settings and .mcp.json servers apply
  gantry export <file.jsonl> [-o out.html]
                                   a session as one self-contained HTML page to share
  gantry mcp serve|list|call       serve Gantry's tools over MCP, list or call MCP servers (gantry mcp --help)
  gantry mcp add NAME -- CMD ARGS… add an MCP server to .mcp.json (--scope user: ~/.gantry/mcp.json;
                                   --env K=V; --transport http URL [--header "K: V"]); gantry mcp remove NAME
  gantry --demo                    offline demo: a scripted model fixes a bug in a sample project

Model
  --provider <name>       openai or anthropic (default: from --model, else openai, or anthropic when
                          only ANTHROPIC_API_KEY is set)
  --model <id>            model id (default: gpt-5.6-terra / claude-sonnet-5-5)
  --base-url <url>        any OpenAI-compatible server (Ollama, vLLM, llama.cpp): any --model id works;
                          add --provider anthropic for an Anthropic-compatible one
  --api-key <key>         API key (default: OPENAI_API_KEY or ANTHROPIC_API_KEY)
  --timeout <duration>    end a request when the server sends nothing this long: 90 (s), 500ms,
                          2m (default: 120 s; also GANTRY_IDLE_TIMEOUT_MS)
  --thinking <level>      reasoning effort: minimal, low, medium or high
  --system-prompt <text>  replace gantry's opening instructions (@FILE reads a file; tools, project
                          instructions and the working folder are still added)
  --append-system-prompt <text>
                          add to the end of the system prompt (@FILE reads a file)
  --no-context-files      leave AGENTS.md / CLAUDE.md (folder up to the repository root, and
                          ~/.gantry/AGENTS.md) out of the system prompt

Tools
  --tools <a,b>           only these tools (names or * patterns); named ones start active,
                          e.g. --tools read,grep,find,ls (default: read, bash, edit, write,
                          grep, find and ls active)
  --exclude-tools <a,b>   never these tools (beats --tools)
  --no-tools              no builtin tools (extension tools still load)
  -e, --extension <path>  load an extension (.ts or .js, no build step); repeatable
  -y, --yes               run tools that change things without asking (deny and ask rules still hold);
                          the same as --permission-mode bypassPermissions
  --permission-mode <m>   default, acceptEdits (edits in the project run), plan (only read-only tools),
                          bypassPermissions or dontAsk (what no allow rule covers is denied); Shift+Tab
                          cycles default, acceptEdits and plan in interactive mode
  --allow <rule>          allow calls without asking, e.g. --allow 'Bash(npm test:*)'; repeatable
  --deny <rule>           block calls, e.g. --deny 'Read(**/.env)'; beats allow; repeatable
                          (rules also come from ~/.gantry/settings.json, .gantry/settings.json and
                          .gantry/settings.local.json, yours and uncommitted, where "always" answers go;
                          a folder's own files add only deny rules until it is trusted)
  --trust                 trust the working folder first (as gantry trust does)
  --sandbox               run bash in the OS sandbox (bubblewrap): writes only in the folder and the
                          session's temp folder, no network unless sandbox.network allows a host;
                          the same as "sandbox": { "enabled": true } in settings; not with --ssh

Session
  --session <file>        use this JSONL transcript (resumed when it exists)
  -c, --continue          resume the latest session of this folder
  -r, --resume [id]       resume a session: its id from gantry sessions (a unique prefix works) or a
                          transcript path; without one, interactive mode lists them to pick from
  --no-session            save no transcript and no checkpoints (the conversation stays in memory)
  --cwd <folder>          work in this folder (default: the current one)
  --ssh <user@host:port>  run every tool on that host over SSH (also GANTRY_SSH; port optional);
                          --cwd is then the folder there (default: home); host key from ~/.ssh/known_hosts;
                          .gantry/settings*.json are read there, the host's .mcp.json is not used
  -i, --identity <file>   the private key for --ssh (default: ssh-agent, then ~/.ssh/id_ed25519 …)
  --mode <mode>           interactive, print or json
  -p, --print             print mode: run the prompt, final answer on stdout, tool activity on stderr

  -h, --help              this help
  -v, --version           the version

Interactive commands
${slashCommandLines("  ").join("\n")}
  Ctrl-C aborts a run; Ctrl-C twice at an empty prompt exits.

Piped input is added to the prompt (git diff | gantry "Review this diff"), up to 400 KB.
Sessions are saved under ~/.gantry/sessions/<folder>-<hash>/; print mode names the file on stderr.

Examples
  OPENAI_API_KEY=sk-... gantry "Why does the build fail?"
  gantry --provider anthropic --model claude-sonnet-5-5
  gantry --provider openai --base-url http://127.0.0.1:11434/v1 --model qwen3:8b
  gantry -e examples/extensions/protected-paths.ts --yes "Tidy up the README"
`;
}
