import { gantryTestConfig } from "../../vitest.shared.js";

// Each test runs turbo (and Vitest inside it) in a workspace of its own.
export default gantryTestConfig({ testTimeout: 180_000, hookTimeout: 180_000 });
