/**
 * A count per Pacific day in SQLite, for one Durable Object: how many of a day's rationed uses (searches) its
 * key has taken. Calls are synchronous, so each runs whole before the next (the object's input gate): that is
 * what makes concurrent takes exact.
 */
import type { SqlExec } from './sql-sliding-log.ts';

export class SqlDayCount {
  constructor(private readonly sql: SqlExec) {
    sql.exec('CREATE TABLE IF NOT EXISTS taken (day TEXT PRIMARY KEY, count INTEGER NOT NULL)');
  }

  /** Takes one use on `day` if fewer than `limit` are taken; other days are forgotten. */
  take(limit: number, day: string): boolean {
    this.sql.exec('DELETE FROM taken WHERE day <> ?', day);
    const count = Number(this.sql.exec('SELECT count FROM taken WHERE day = ?', day).toArray()[0]?.count ?? 0);
    if (count >= limit) return false;
    this.sql.exec('INSERT INTO taken (day, count) VALUES (?, 1) ON CONFLICT(day) DO UPDATE SET count = count + 1', day);
    return true;
  }

  /** Gives back one use taken on `day` (the shared ration refused after the client's was taken). */
  refund(day: string): void {
    this.sql.exec('UPDATE taken SET count = count - 1 WHERE day = ? AND count > 0', day);
  }

  /** The day of the stored count, or undefined when nothing is stored. */
  storedDay(): string | undefined {
    const day = this.sql.exec('SELECT day FROM taken LIMIT 1').toArray()[0]?.day;
    return typeof day === 'string' ? day : undefined;
  }
}
