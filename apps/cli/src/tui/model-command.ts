import { getModels, type Model } from "@gantry/ai";
import type { AgentSession } from "@gantry/coding-agent";
import type { Theme } from "@gantry/extensions";

/**
 * `/model`: the catalogue's models of the session's provider, the current one marked; `/model <id>`
 * switches to one of them (the next request uses it; a base URL the session was pointed at is kept). A
 * provider the catalogue does not know (an OpenAI-compatible server) takes any id the server knows.
 */
export function modelCommand(words: string[], session: AgentSession, theme: Theme): string[] {
	const current = session.model;
	const known = getModels(current.provider);
	if (words.length > 1) return [theme.error("Usage: /model, /model <id>")];
	const id = words[0];
	if (id === undefined) {
		if (known.length === 0) {
			return [
				`${theme.accent("●")} ${current.id} ${theme.muted(`(${current.provider} at ${current.baseUrl})`)}`,
				theme.muted(
					`The catalogue has no models for ${current.provider}: /model <id> asks the server for any id it serves.`,
				),
			];
		}
		const width = Math.max(...known.map((model) => model.id.length)) + 2;
		return [
			theme.muted(`Models of ${current.provider} (/model <id> switches; the next request uses it):`),
			...known.map((model) => {
				const mark = model.id === current.id ? theme.accent("●") : " ";
				const name = model.id === current.id ? theme.bold(model.id.padEnd(width)) : model.id.padEnd(width);
				return `${mark} ${name}${theme.muted(describe(model))}`;
			}),
		];
	}
	if (id === current.id) return [theme.muted(`${id} is already the model.`)];
	let next: Model;
	if (known.length === 0) next = { ...current, id, name: id };
	else {
		const found = known.find((model) => model.id === id);
		if (found === undefined) {
			return [
				theme.error(`${current.provider} has no model ${id} (known: ${known.map((model) => model.id).join(", ")}).`),
			];
		}
		next = current.baseUrl === undefined ? found : { ...found, baseUrl: current.baseUrl };
	}
	// Recorded in the transcript: `--resume` goes on with this model.
	session.setModel(next);
	return [theme.success(`Model: ${next.provider}/${next.id} from the next request on.`)];
}

function describe(model: Model): string {
	const window = `${Math.round(model.contextWindow / 1000).toLocaleString("en-US")}k context`;
	return model.name === model.id ? window : `${model.name} · ${window}`;
}
