/**
 * A known amount of JavaScript work, for validating the in-workerd CPU method (bench/edge-workerd.ts): the same
 * deterministic loop is timed in Node and run inside a request of the bench-only Worker (bench/calibrated-worker.ts).
 */

/** Runs `rounds` rounds of integer mixing over a small array; returns a value that depends on every round. */
export function burn(rounds: number): number {
  const cells = new Int32Array(256);
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < rounds; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    cells[i & 255] = (cells[i & 255]! + x) | 0;
  }
  return cells.reduce((sum, cell) => (sum + cell) | 0, 0);
}
