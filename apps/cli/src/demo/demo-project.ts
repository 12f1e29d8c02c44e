import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../package-info.js";

/** The bundled sample project (a package folder, not part of `dist`). */
export const DEMO_PROJECT_SOURCE = join(PACKAGE_ROOT, "demo-project");
/** The demo's orchestrator extension, loaded from source like any `-e` extension. */
export const DEMO_EXTENSION = join(PACKAGE_ROOT, "demo-extensions", "inspect.ts");

/** Where a demo run works: the copied project and, next to it, the session transcript. */
export interface DemoFolder {
	root: string;
	project: string;
	sessionFile: string;
}

/** Copies the sample project into a new temporary folder. */
export function copyDemoProject(): DemoFolder {
	const root = mkdtempSync(join(tmpdir(), "gantry-demo-"));
	const project = join(root, "corner-shop");
	cpSync(DEMO_PROJECT_SOURCE, project, { recursive: true });
	return { root, project, sessionFile: join(root, "session.jsonl") };
}
