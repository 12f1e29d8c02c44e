import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { entryMatchesHost, fingerprintOf, keyTypeOf, knownHostName, parseKnownHosts } from "../src/known-hosts.js";

const KEY = "AAAAC3NzaC1lZDI1NTE5AAAAIHUiDRe6iUWvrNNPs2gl8SWDYeZhrqGNEOrNi9ZqlYdX";

describe("known_hosts lines", () => {
	it("parses plain, hashed, revoked lines and skips comments, CA lines and junk", () => {
		const text = [
			"# comment",
			"",
			`example.com,10.0.0.1 ssh-ed25519 ${KEY} a comment`,
			`@revoked bad.example ssh-ed25519 ${KEY}`,
			`@cert-authority *.example ssh-ed25519 ${KEY}`,
			"broken-line",
		].join("\n");
		const entries = parseKnownHosts(text);
		expect(entries.map((entry) => [entry.hosts, entry.revoked, entry.keyType])).toEqual([
			["example.com,10.0.0.1", false, "ssh-ed25519"],
			["bad.example", true, "ssh-ed25519"],
		]);
		expect(keyTypeOf(entries[0]!.key)).toBe("ssh-ed25519");
		expect(fingerprintOf(entries[0]!.key)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
	});

	it("matches names, ports, wildcards, negations and hashes as OpenSSH does", () => {
		expect(knownHostName("h", 22)).toBe("h");
		expect(knownHostName("h", 2222)).toBe("[h]:2222");
		expect(entryMatchesHost("a.example,b.example", "b.example")).toBe(true);
		expect(entryMatchesHost("B.Example", "b.example")).toBe(true);
		expect(entryMatchesHost("*.example", "x.example")).toBe(true);
		expect(entryMatchesHost("*.example,!secret.example", "secret.example")).toBe(false);
		expect(entryMatchesHost("host?", "host1")).toBe(true);
		expect(entryMatchesHost("host", "[host]:2222")).toBe(false);
		expect(entryMatchesHost("[host]:2222", "[host]:2222")).toBe(true);
		const salt = Buffer.from("0123456789abcdefghij");
		const hash = createHmac("sha1", salt).update("[host]:2222").digest("base64");
		expect(entryMatchesHost(`|1|${salt.toString("base64")}|${hash}`, "[host]:2222")).toBe(true);
		expect(entryMatchesHost(`|1|${salt.toString("base64")}|${hash}`, "host")).toBe(false);
	});
});
