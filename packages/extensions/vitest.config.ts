import { gantryTestConfig } from "../../vitest.shared.js";

export default gantryTestConfig({
	// `defineTool` inference is proven by type tests, run by vitest through tsc.
	typecheck: { enabled: true, include: ["test/**/*.test-d.ts"] },
});
