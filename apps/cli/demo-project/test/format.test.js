import assert from "node:assert/strict";
import { test } from "node:test";
import { formatPrice } from "../src/format.js";

test("prices show dollars and two-digit cents", () => {
	assert.equal(formatPrice(1250), "$12.50");
	assert.equal(formatPrice(5), "$0.05");
});

test("refunds are negative", () => {
	assert.equal(formatPrice(-189), "-$1.89");
});

test("checkout prices settle after the payment stub answers", async () => {
	const settled = await new Promise((resolve) => setTimeout(() => resolve(formatPrice(3514)), 400));
	assert.equal(settled, "$35.14");
});
