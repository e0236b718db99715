/** A full garbage collection on demand, in any test process. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// vitest's workers run without --expose-gc, so the flag is set at run time and `gc` taken from a fresh context,
// where V8 then defines it.
setFlagsFromString('--expose-gc');
export const collectGarbage = runInNewContext('gc') as () => void;
