import type { ScriptedLlmServer } from "@gantry/ai/testing";

/** The JSON body of request `index` (from 0) to the scripted model server; throws when that request never came. */
export function requestBody(server: Pick<ScriptedLlmServer, "requests">, index: number): Record<string, unknown> {
	const request = server.requests[index];
	if (request === undefined) {
		throw new Error(`The model server got ${server.requests.length} request(s), so there is no request ${index}`);
	}
	return request.body;
}
