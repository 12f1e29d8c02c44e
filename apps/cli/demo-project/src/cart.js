/**
 * The total of a cart, in cents.
 * @param {{ name: string, price: number, quantity: number }[]} items prices in cents
 */
export function cartTotal(items) {
	let total = 0;
	for (let index = 1; index < items.length; index++) {
		total += items[index].price * items[index].quantity;
	}
	return total;
}

/** The total after a percentage discount, rounded to whole cents. */
export function discountedTotal(items, percent) {
	return Math.round(cartTotal(items) * (1 - percent / 100));
}
