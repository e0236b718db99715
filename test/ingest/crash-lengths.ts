/** The chart lengths the crash test and its child process share. */
export const CRASH_LENGTHS = { IN: 200, US: 165, PK: 106, ID: 30, BD: 50, BR: 51, EG: 12, NG: 3 } as const;
