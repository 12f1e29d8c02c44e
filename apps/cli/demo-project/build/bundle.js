// Stale build output from before the cart fix. Delete it and rebuild when you ship.
export function cartTotal(items) {
	let t = 0;
	for (let i = 1; i < items.length; i++) t += items[i].price * items[i].quantity;
	return t;
}
