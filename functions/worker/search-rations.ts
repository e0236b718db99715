/**
 * The Worker's search rations: one SQLite-backed Durable Object per client key and one for everyone, so the rations
 * of quota.ts (`SEARCH_RATION`: per client, and in all, per Pacific day) hold across isolates and locations, as the
 * rate limit does. Each `/c/` lookup that needs a search costs two or three Durable Object requests; nothing else does.
 */
import { DurableObject } from 'cloudflare:workers';
import { pacificDate, type SearchRations } from '../../src/youtube/quota.ts';
import { SqlDayCount } from './sql-day-count.ts';

/** A day later the count means nothing: the object deletes its storage. */
const DAY_MS = 86_400_000;
const EVERYONE = 'everyone';

export class SearchRation extends DurableObject<Record<string, unknown>> {
  /** Made on first use, and again after the alarm's deleteAll (which drops the table with the rest). */
  private count: SqlDayCount | undefined;

  private counted(): SqlDayCount {
    return (this.count ??= new SqlDayCount(this.ctx.storage.sql));
  }

  /** RPC: takes one search on `day` (Pacific) if fewer than `limit` are taken. */
  async take(limit: number, day: string): Promise<boolean> {
    const taken = this.counted().take(limit, day);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + 2 * DAY_MS);
    return taken;
  }

  /** RPC: gives back one search taken on `day`. */
  refund(day: string): void {
    this.counted().refund(day);
  }

  override async alarm(): Promise<void> {
    if (this.counted().storedDay() === pacificDate(Date.now())) {
      await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
      return;
    }
    this.count = undefined;
    await this.ctx.storage.deleteAll();
  }
}

export function createDurableObjectSearchRations(
  namespace: DurableObjectNamespace<SearchRation>,
  perDay: number,
  perClient: number,
): SearchRations {
  const object = (name: string) => namespace.get(namespace.idFromName(name));
  return {
    perDay,
    perClient,
    async take(client, now) {
      const day = pacificDate(now);
      // The client's own ration first, so a client past it leaves the shared ration to everyone else.
      const own = client === undefined ? null : object(`client:${client}`);
      if (own && !(await own.take(perClient, day))) return false;
      if (await object(EVERYONE).take(perDay, day)) return true;
      if (own) await own.refund(day);
      return false;
    },
    usedToday: () => null,
  };
}
