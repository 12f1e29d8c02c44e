import { gantryTestConfig } from "../../vitest.shared.js";

// Packing and installing from the registry takes tens of seconds per package.
export default gantryTestConfig({ testTimeout: 300_000, hookTimeout: 300_000 });
