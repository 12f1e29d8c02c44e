import assert from "node:assert/strict";
import { test } from "node:test";
import { cartTotal, discountedTotal } from "../src/cart.js";

const cart = [
	{ name: "coffee beans", price: 1250, quantity: 2 },
	{ name: "milk", price: 189, quantity: 1 },
	{ name: "croissant", price: 275, quantity: 3 },
];

test("an empty cart costs nothing", () => {
	assert.equal(cartTotal([]), 0);
});

test("a single item counts", () => {
	assert.equal(cartTotal([{ name: "tea", price: 450, quantity: 1 }]), 450);
});

test("every item counts, times its quantity", () => {
	assert.equal(cartTotal(cart), 2500 + 189 + 825);
});

test("a discount applies to the whole cart", () => {
	assert.equal(discountedTotal(cart, 10), 3163);
});
