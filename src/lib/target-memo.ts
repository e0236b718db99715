/**
 * A memo of what was worked out for a request target (its validated question, its access-log fields), bounded in
 * entries and in key length, that keeps a target from its second request on. A flood of targets each asked once
 * (a creator trying a new title on every request) then leaves nothing behind: kept, each would live on into the
 * old generation of the heap and tax every full garbage collection after it (measured in Node 24: a new title per
 * request took 88–90 µs in-process with the memos keeping every target, 56–71 µs with them keeping none). A target
 * asked again is kept, and answered from the memo from then on.
 */

/** Entries each memo keeps (it is emptied when full), and the longest target it keeps. */
export const TARGET_MEMO_BOUNDS = { entries: 10_000, keyLength: 512 } as const;

export interface TargetMemo<V> {
  get(target: string): V | undefined;
  /** Keeps `value` if `target` was offered before (and is not too long); otherwise notes that it was offered. */
  offer(target: string, value: V): void;
}

export function createTargetMemo<V>(): TargetMemo<V> {
  const kept = new Map<string, V>();
  const sightings = createSightings();
  return {
    get: (target) => kept.get(target),
    offer(target, value) {
      if (!sightings.again(target)) return;
      if (kept.size >= TARGET_MEMO_BOUNDS.entries) kept.clear();
      kept.set(target, value);
    },
  };
}

/** Which keys were seen before: the second sighting of a key, and every one after, answers true. */
export interface Sightings {
  /** Notes that `key` is seen now; true when it was seen before (a key longer than the bound: never). */
  again(key: string): boolean;
}

export function createSightings(): Sightings {
  /** Hashes of the keys seen once: small integers, which the garbage collector never has to trace. */
  const seen = new Set<number>();
  return {
    again(key) {
      if (key.length > TARGET_MEMO_BOUNDS.keyLength) return false;
      const hash = hashOf(key);
      if (seen.has(hash)) return true;
      if (seen.size >= TARGET_MEMO_BOUNDS.entries) seen.clear();
      seen.add(hash);
      return false;
    },
  };
}

/**
 * FNV-1a over the UTF-16 units, cut to 30 bits so it stays a small integer on every V8 build. A collision only
 * lets a target be kept on its first request.
 */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}
