import { getModel } from "../src/index.js";
import { describeRealProvider } from "./e2e-suite.js";

describeRealProvider("anthropic-messages", "ANTHROPIC_API_KEY", () => getModel("anthropic", "claude-haiku-4-5"));
