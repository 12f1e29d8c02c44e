#!/usr/bin/env node
import { runCli } from "./cli.js";

const code = await runCli(process.argv.slice(2));
// Open handles (keep-alive sockets, a paused stdin) must not keep a finished command alive.
process.stdout.write("", () => process.exit(code));
