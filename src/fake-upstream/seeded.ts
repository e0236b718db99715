/**
 * Deterministic randomness for the fake upstream: a string hash, a seeded PRNG (mulberry32) and
 * YouTube-shaped identifiers derived from a key. Nothing here calls Math.random.
 */

/** Two independent 32-bit hashes of a string (cyrb53's two lanes), for seeds and identifiers. */
function hashPair(input: string, seed = 0): [number, number] {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < input.length; i++) {
    const ch = input.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/** A 32-bit hash of a string. */
function hashString(input: string): number {
  return hashPair(input)[0];
}

/** A seeded generator of floats in [0, 1): mulberry32. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A small toolbox over one seeded stream, so generators read as intent rather than arithmetic. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** One element, with the given relative weights. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** A log-normal draw with the given median and spread (sigma of the underlying normal). */
  logNormal(median: number, sigma: number): number;
}

class SeededRng implements Rng {
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let roll = this.next() * total;
    for (const [item, w] of items) {
      roll -= w;
      if (roll < 0) return item;
    }
    const last = items[items.length - 1];
    if (!last) throw new RangeError('weighted pick from an empty list');
    return last[0];
  }

  logNormal(median: number, sigma: number): number {
    // Box–Muller; 1 - next() keeps the logarithm finite.
    const z = Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
    return median * Math.exp(sigma * z);
  }
}

/** A PRNG seeded from a string key. */
export function createRng(key: string): Rng {
  return new SeededRng(hashString(key));
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Six bits per character from 32-bit words, most significant bit first (words repeat if too few). */
function bitsToChars(words: readonly number[], count: number): string {
  const word = (i: number) => (words[i % words.length] ?? 0) >>> 0;
  let out = '';
  for (let i = 0; i < count; i++) {
    const bit = i * 6;
    const index = bit >>> 5;
    const offset = bit & 31;
    const value =
      offset <= 26
        ? (word(index) >>> (26 - offset)) & 63
        : ((word(index) << (offset - 26)) | (word(index + 1) >>> (58 - offset))) & 63;
    out += BASE64URL[value];
  }
  return out;
}

/**
 * An 11-character video id derived from a key. Like real ids (64 bits in base64url), the last
 * character carries only 4 bits, so it is one of `AEIMQUYcgkosw048`.
 */
export function makeVideoId(key: string): string {
  const [a, b] = hashPair(key, 0x5151);
  return bitsToChars([a, b], 10) + 'AEIMQUYcgkosw048'[b & 15];
}

/** A channel id: `UC` + 22 characters (128 bits; the last character carries 2 bits, like real ids). */
export function makeChannelId(key: string): string {
  const [a, b] = hashPair(key, 0xc4a7);
  const [c, d] = hashPair(key, 0x77e1);
  return 'UC' + bitsToChars([a, b, c, d], 21) + 'AQgw'[d & 3];
}

/** A 27-character etag like the upstream's (they are opaque; only their shape matters). */
export function makeEtag(content: string): string {
  const [a, b] = hashPair(content, 0xe7a6);
  const [c, d] = hashPair(content, 0x0e7a);
  return bitsToChars([a, b, c, d], 27);
}
