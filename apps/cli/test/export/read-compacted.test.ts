import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../../src/export/read-transcript.js";

describe("exporting a compacted transcript", () => {
	it("shows every message and counts compaction and trim lines as read, not as unreadable", () => {
		const dir = mkdtempSync(join(tmpdir(), "gantry-export-compacted-"));
		try {
			const file = join(dir, "session.jsonl");
			const lines = [
				{ type: "session", version: 1, id: "abc", cwd: dir, createdAt: "2026-12-02T05:00:00.000Z" },
				{ type: "message", message: { role: "user", content: "one", timestamp: 1 } },
				{ type: "trim", toolCallIds: ["call_1"], characters: 4000 },
				{
					type: "compaction",
					reason: "manual",
					summary: "S",
					firstKeptIndex: 1,
					tokensBefore: 9,
					tokensAfter: 3,
					timestamp: "",
				},
				{ type: "message", message: { role: "user", content: "two", timestamp: 2 } },
			];
			writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
			const read = readTranscript(file);
			expect(read.skippedLines).toBe(0);
			expect(read.items.filter((item) => item.type === "message")).toHaveLength(2);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
