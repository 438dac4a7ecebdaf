/** Random draws for fuzz and property tests, replayable from a seed. */

/** Deterministic PRNG (mulberry32), so a failure can be replayed with FUZZ_SEED. */
export function prng(seed: number) {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
	const pick = <T,>(items: readonly T[]): T => items[int(0, items.length - 1)];
	const chance = (p: number) => next() < p;
	return { next, int, pick, chance };
}
export type Rng = ReturnType<typeof prng>;
