import { getModel } from "../src/index.js";
import { describeRealProvider } from "./e2e-suite.js";

describeRealProvider("openai-completions", "OPENAI_API_KEY", () => getModel("openai", "gpt-4.1-mini"));
