/**
 * The soak's CI variant: 20 seconds of mixed, partly over-limit traffic against the real server in a child
 * process, through the same code as `tsx bench/soak.ts`. The 10-minute soak runs from the bench, not in CI.
 * It serves the suite's shared site (its index build and its pages), as the bench's soak serves the bench site;
 * its upstream is the bench's, the sample dataset of the site's latest date.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPECTED_STATUSES, FD_SLACK, runSoak, type SoakReport } from '../../bench/soak.ts';
import { sharedSite } from '../helpers/shared-site.ts';

const site = await sharedSite();

const SECONDS = 20;
const RATE = 50;
const RSS_GROWTH_LIMIT_MB = 40;

let report: SoakReport;

beforeAll(async () => {
  // One heavy client: at 50 req/s its 15% share passes 100 requests within the 20 seconds.
  report = await runSoak({
    minutes: SECONDS / 60,
    rate: RATE,
    warmupSeconds: 5,
    heavyClients: 1,
    rssGrowthLimitMb: RSS_GROWTH_LIMIT_MB,
    site: { buildDir: site.buildDir, distDir: site.distDir, latestDate: site.latestDate },
  });
}, 180_000);

describe('a 20-second soak of the real server', () => {
  it('answers every request with 200, 404, 422 or 429, and with no socket error or server error', () => {
    const unexpected = Object.keys(report.statuses).filter((status) => !EXPECTED_STATUSES.has(status));
    expect(unexpected).toEqual([]);
    expect(report.errors).toBe(0);
    expect(report.serverErrors).toBe(0);
    expect(report.statuses['200']).toBeGreaterThan(RATE * SECONDS * 0.5);
  });

  it('limits the over-limit client while the others get through', () => {
    expect(report.statuses['429']).toBeGreaterThan(0);
    // Only the heavy client (15% of the traffic) goes over the limit; the 5,000 light ones never do.
    expect(report.statuses['429']).toBeLessThan(report.requests * 0.25);
  });

  it('keeps up with the steady rate', () => {
    expect(report.requests).toBeGreaterThanOrEqual(RATE * SECONDS * 0.9);
  });

  it('leaks no file descriptors although connections are reopened every 50 requests', () => {
    expect(report.fdsEnd).toBeLessThanOrEqual(report.fdsStart + FD_SLACK);
  });

  it('keeps its memory bounded after the warm-up', () => {
    expect(report.rssEndMb - report.rssStartMb).toBeLessThanOrEqual(RSS_GROWTH_LIMIT_MB);
  });

  it('reports no failure', () => {
    expect(report.failures).toEqual([]);
  });
});
