/**
 * The bench-only Worker of `npm run bench:edge` (never deployed: wrangler.toml's `main` is
 * functions/worker/index.ts; the bench runs `wrangler dev bench/calibrated-worker.ts`). It is the real Worker,
 * plus one calibration hook: a /healthz request with `X-Bench-Burn: <rounds>` first runs bench/burn.ts for that
 * many rounds, a known amount of JavaScript time measured in Node, so the bench can check that its in-workerd
 * CPU method reads that much more.
 */
import worker from '../functions/worker/index.ts';
import { burn } from './burn.ts';

export { RateLimiter, SearchRation } from '../functions/worker/index.ts';

let sink = 0;

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const rounds = Number(request.headers.get('x-bench-burn') ?? 0);
    if (rounds > 0 && new URL(request.url).pathname === '/healthz') sink ^= burn(rounds);
    const answer = worker.fetch(request, env, ctx);
    // Read, so the burn cannot be optimised away.
    return sink === 0x7fffffff ? answer.then((r) => r) : answer;
  },
} satisfies ExportedHandler<Env>;
