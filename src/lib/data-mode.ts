/** Where data comes from: the built-in sample upstream (no key) or the real YouTube Data API. */

export const DATA_MODES = ['sample', 'live'] as const;

export type DataMode = (typeof DATA_MODES)[number];
