import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gantryTestConfig } from "../../vitest.shared.js";

// Sessions read ~/.gantry/AGENTS.md unless told otherwise: tests get an empty home of their own, never the real one.
const home = join(tmpdir(), "gantry-coding-agent-test-home");
mkdirSync(home, { recursive: true });

export default gantryTestConfig({ env: { HOME: home } });
