import { gantryTestConfig } from "../../vitest.shared.js";

export default gantryTestConfig();
