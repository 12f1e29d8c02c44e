// A stdio MCP server for the benchmark: `noop` answers at once; `tool_1` … `tool_N` (N from argv, default
// 0) are there to be declared, each with a realistic description and three parameters.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const extra = Number(process.argv[2] ?? 0);
const tools = [{ name: "noop", description: "Does nothing.", inputSchema: { type: "object", properties: {} } }];
for (let index = 1; index <= extra; index++) {
	tools.push({
		name: `tool_${index}`,
		description: `Looks up record ${index} of the issue tracker by its key and returns its fields, comments and history.`,
		inputSchema: {
			type: "object",
			properties: {
				key: { type: "string", description: "The record's key, e.g. ABC-123" },
				fields: { type: "array", items: { type: "string" }, description: "Fields to return (default: all)" },
				limit: { type: "number", description: "Most comments to return" },
			},
			required: ["key"],
		},
		annotations: { readOnlyHint: true },
	});
}
const server = new Server({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text", text: "ok" }] }));
await server.connect(new StdioServerTransport());
