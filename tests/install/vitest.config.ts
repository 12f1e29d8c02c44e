import { gantryTestConfig } from "../../vitest.shared.js";

export default gantryTestConfig({
	// Packs every package once (pnpm pack:all) before the test files run.
	globalSetup: ["test/global-setup.ts"],
	// Installing from the registry takes tens of seconds per package, minutes for the CLI on a cold cache.
	testTimeout: 300_000,
	hookTimeout: 900_000,
	// One npm install at a time: the files share the machine's two cores and npm's cache.
	fileParallelism: false,
});
