// A catalogue of realistic tools for the listing benchmark: the shapes of real MCP servers' tools (an issue
// tracker, a code host, a wiki, a chat, a cloud console, …): a description of one to three sentences,
// two to seven parameters with descriptions, enums, pagination, a nested filter object. Deterministic.

const SERVICES = [
	["tracker", "issue", "issues in the team's issue tracker"],
	["code", "pull_request", "pull requests of the code host"],
	["wiki", "page", "pages of the company wiki"],
	["chat", "message", "messages in the team chat"],
	["cloud", "instance", "virtual machines of the cloud account"],
	["billing", "invoice", "invoices of the billing system"],
	["crm", "contact", "contacts of the sales CRM"],
	["calendar", "event", "events of the shared calendar"],
	["storage", "object", "objects in the storage buckets"],
	["monitor", "alert", "alerts of the monitoring service"],
	["deploy", "release", "releases of the deployment pipeline"],
	["support", "ticket", "tickets of the support desk"],
	["docs", "document", "documents of the shared drive"],
	["hr", "employee", "employee records of the HR system"],
	["db", "table", "tables of the analytics database"],
	["ci", "build", "builds of the continuous integration service"],
	["design", "file", "files of the design tool"],
	["mail", "thread", "threads of the shared mailbox"],
	["feature", "flag", "flags of the feature-flag service"],
	["status", "incident", "incidents of the status page"],
];

const OPERATIONS = [
	[
		"list",
		"Lists the {nouns} that match the filters, newest first. Results are paged; use page and per_page to walk them.",
	],
	["get", "Returns one {noun} with all its fields, by its id. Fails when the id does not exist or you may not see it."],
	["create", "Creates a new {noun} and returns it with its id. Required fields depend on the project's settings."],
	[
		"update",
		"Changes the given fields of an existing {noun}; fields you leave out keep their value. Returns the updated record.",
	],
	["delete", "Deletes a {noun} for good. This cannot be undone; prefer archive where the service offers it."],
	[
		"search",
		"Full-text search over the {nouns}, with the service's query syntax (field:value, quotes for phrases, AND/OR).",
	],
	["comment", "Adds a comment to a {noun}. Markdown is rendered; mentions with @name notify people."],
	["assign", "Assigns a {noun} to a person or a team, replacing the current assignee unless append is true."],
	["archive", "Archives a {noun}: it disappears from default views and searches but can be restored."],
	["history", "Returns the change history of a {noun}: who changed which field, when, from what to what."],
];

/** The scope every call of a real service names (an owner and a repository, a workspace and a project, …). */
const SCOPE = {
	workspace: { type: "string", description: "Workspace (organisation) slug, e.g. acme" },
	project: { type: "string", description: "Project key within the workspace, e.g. WEB" },
};

function parametersFor(operation, noun, index) {
	const { properties, required } = operationParameters(operation, noun, index);
	return { properties: { ...SCOPE, ...properties }, required: ["workspace", "project", ...required] };
}

function operationParameters(operation, noun, index) {
	const id = {
		type: "string",
		description: `The ${noun}'s id, as returned by list or search (e.g. ${noun.toUpperCase()}-${100 + index})`,
	};
	const paging = {
		page: { type: "integer", description: "Page to return, from 1 (default 1)" },
		per_page: { type: "integer", description: "Results per page, at most 100 (default 30)" },
	};
	const filters = {
		type: "object",
		description: "Only results matching every given field",
		properties: {
			status: { type: "string", enum: ["open", "in_progress", "done", "closed"], description: "Current status" },
			owner: { type: "string", description: "Login of the owner" },
			created_after: { type: "string", description: "ISO 8601 date" },
		},
	};
	switch (operation) {
		case "list":
			return {
				properties: {
					filters,
					sort: { type: "string", enum: ["created", "updated", "priority"], description: "Sort key" },
					...paging,
				},
				required: [],
			};
		case "get":
			return {
				properties: {
					id,
					include: {
						type: "array",
						items: { type: "string" },
						description: "Extra sections to include (comments, links, attachments)",
					},
				},
				required: ["id"],
			};
		case "create":
			return {
				properties: {
					title: { type: "string", description: `A short title for the ${noun}` },
					body: { type: "string", description: "Long text, Markdown" },
					labels: { type: "array", items: { type: "string" }, description: "Labels to set" },
					priority: {
						type: "string",
						enum: ["low", "medium", "high", "urgent"],
						description: "Priority (default medium)",
					},
					project: { type: "string", description: "Project key; default: the user's default project" },
				},
				required: ["title"],
			};
		case "update":
			return {
				properties: {
					id,
					title: { type: "string", description: "New title" },
					body: { type: "string", description: "New text, Markdown" },
					labels: { type: "array", items: { type: "string" }, description: "Labels, replacing the current ones" },
					status: { type: "string", enum: ["open", "in_progress", "done", "closed"], description: "New status" },
				},
				required: ["id"],
			};
		case "search":
			return {
				properties: { query: { type: "string", description: "Search query in the service's syntax" }, ...paging },
				required: ["query"],
			};
		case "comment":
			return {
				properties: {
					id,
					body: { type: "string", description: "Comment text, Markdown" },
					internal: { type: "boolean", description: "Visible to the team only" },
				},
				required: ["id", "body"],
			};
		case "assign":
			return {
				properties: {
					id,
					assignee: { type: "string", description: "Login of a person or @team" },
					append: { type: "boolean", description: "Add instead of replacing" },
				},
				required: ["id", "assignee"],
			};
		default:
			return { properties: { id }, required: ["id"] };
	}
}

/** `count` tools (at most 200), as `{ name, description, parameters }` JSON Schema objects. */
export function realisticTools(count) {
	const tools = [];
	for (let index = 0; index < count; index++) {
		const [service, noun, nouns] = SERVICES[index % SERVICES.length];
		const [operation, template] = OPERATIONS[Math.floor(index / SERVICES.length) % OPERATIONS.length];
		const { properties, required } = parametersFor(operation, noun, index);
		tools.push({
			name: `${service}_${operation}_${noun}`,
			description: template.replaceAll("{nouns}", nouns).replaceAll("{noun}", noun.replace("_", " ")),
			parameters: { type: "object", properties, required },
		});
	}
	return tools;
}
