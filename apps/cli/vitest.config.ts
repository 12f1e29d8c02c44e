import { gantryTestConfig } from "../../vitest.shared.js";

export default gantryTestConfig({
	// The end-to-end tests spawn the built CLI; this builds it (and stale dependencies) first.
	globalSetup: ["test/helpers/global-setup.ts"],
	// Every end-to-end test starts a Node process that loads the whole session stack.
	testTimeout: 60_000,
	hookTimeout: 60_000,
});
