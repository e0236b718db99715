import { describe, expect, it } from 'vitest';
import { createUpstreamEmulator, type UpstreamEmulator } from '../support/emulator.ts';
import {
  CASE_TWIN_TAGS_VIDEO_ID,
  COMMENTS_OFF_VIDEO_ID,
  FIXTURE_CHART_SIZES,
  FORMULA_TAG_VIDEO_ID,
  HANDLE_CHANNEL,
  HIDDEN_LIKES_VIDEO_ID,
  HIDDEN_SUBSCRIBERS_CHANNEL,
  HINDI_VIDEO_ID,
  LIVE_VIDEO_ID,
  MISSING_HANDLE,
  MISSING_VIDEO_ID,
  NON_LATIN_HANDLE_CHANNEL,
  NO_TAGS_VIDEO_ID,
  SEARCH_DECOY_CHANNEL,
  SEARCH_ONLY_CHANNEL,
  USERNAME_CHANNEL,
  fixtureDataset,
} from '../fixtures/upstream-dataset.ts';

const KEY = 'AIzaSyTEST-emulator-key-0123456789abc';
const API = 'https://www.googleapis.com/youtube/v3/';

type Json = any;

function emulator(): UpstreamEmulator {
  return createUpstreamEmulator(fixtureDataset, { validKeys: [KEY] });
}

async function call(
  e: UpstreamEmulator,
  pathAndQuery: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Json; text: string; res: Response }> {
  const res = await e.fetch(API + pathAndQuery, { headers: { 'X-Goog-Api-Key': KEY }, ...init });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text, res };
}

describe('videos.list by id', () => {
  it('answers in the upstream wire format: kind, etag, items, pageInfo, counts as strings', async () => {
    const { status, body, res } = await call(
      emulator(),
      `videos?part=snippet,contentDetails,statistics&id=${HINDI_VIDEO_ID}`,
    );
    expect(status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(Object.keys(body)).toEqual(['kind', 'etag', 'items', 'pageInfo']);
    expect(body.kind).toBe('youtube#videoListResponse');
    expect(body.etag).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(body.pageInfo).toEqual({ totalResults: 1, resultsPerPage: 1 });
    const [item] = body.items;
    expect(Object.keys(item)).toEqual(['kind', 'etag', 'id', 'snippet', 'contentDetails', 'statistics']);
    expect(item.id).toBe(HINDI_VIDEO_ID);
    expect(item.statistics).toEqual({
      viewCount: '4821377',
      likeCount: '183204',
      favoriteCount: '0',
      commentCount: '9215',
    });
    expect(item.snippet.title).toContain('दिल की बातें');
    expect(item.contentDetails.duration).toBe('PT3M52S');
  });

  it('keeps omitted fields omitted: tags, likeCount, commentCount', async () => {
    const e = emulator();
    const ids = [NO_TAGS_VIDEO_ID, HIDDEN_LIKES_VIDEO_ID, COMMENTS_OFF_VIDEO_ID].join(',');
    const { body } = await call(e, `videos?part=snippet,statistics&id=${ids}`);
    const [noTags, hiddenLikes, commentsOff] = body.items;
    expect(noTags.snippet).not.toHaveProperty('tags');
    expect(hiddenLikes.statistics).not.toHaveProperty('likeCount');
    expect(hiddenLikes.statistics.commentCount).toBe('12044');
    expect(commentsOff.statistics).not.toHaveProperty('commentCount');
    expect(commentsOff.statistics.likeCount).toBe('21099');
  });

  it('gives a live stream the P0D duration and liveBroadcastContent "live"', async () => {
    const { body } = await call(emulator(), `videos?part=snippet,contentDetails&id=${LIVE_VIDEO_ID}`);
    expect(body.items[0].contentDetails.duration).toBe('P0D');
    expect(body.items[0].snippet.liveBroadcastContent).toBe('live');
  });

  it('answers a missing, private or deleted video with 200 and no items', async () => {
    const { status, body } = await call(emulator(), `videos?part=snippet&id=${MISSING_VIDEO_ID}`);
    expect(status).toBe(200);
    expect(body.items).toEqual([]);
    expect(body.pageInfo).toEqual({ totalResults: 0, resultsPerPage: 0 });
  });

  it('returns several ids in the order asked, once each, skipping missing ones, and ignores maxResults', async () => {
    const ids = [LIVE_VIDEO_ID, MISSING_VIDEO_ID, HINDI_VIDEO_ID, LIVE_VIDEO_ID].join(',');
    const { body } = await call(emulator(), `videos?part=id&id=${ids}&maxResults=1`);
    expect(body.items.map((i: Json) => i.id)).toEqual([LIVE_VIDEO_ID, HINDI_VIDEO_ID]);
  });

  it('refuses more than 50 ids with invalidFilters', async () => {
    const ids = Array.from({ length: 51 }, (_, i) => `id${String(i).padStart(9, '0')}`).join(',');
    const { status, body } = await call(emulator(), `videos?part=id&id=${ids}`);
    expect(status).toBe(400);
    expect(body.error.errors[0].reason).toBe('invalidFilters');
  });

  it('escapes &, <, >, = and apostrophes inside strings as Google does, and JSON.parse reads them back', async () => {
    const { text, body } = await call(emulator(), `videos?part=snippet&id=${FORMULA_TAG_VIDEO_ID}`);
    expect(text).toContain('Tom \\u0026 Jerry');
    expect(text).toContain('\\u003dLOVE');
    expect(text).not.toContain('Tom & Jerry');
    expect(body.items[0].snippet.tags).toEqual([
      '=LOVE',
      '+91 comedy',
      '-ve role',
      '@desibeatsmusic',
      '"ghar ka khana"',
      'Tom & Jerry',
      'R&B',
      'family comedy',
    ]);
  });

  it('keeps tags that differ only by case as given', async () => {
    const { body } = await call(emulator(), `videos?part=snippet&id=${CASE_TWIN_TAGS_VIDEO_ID}`);
    expect(body.items[0].snippet.tags.slice(0, 2)).toEqual(['Cricket', 'cricket']);
  });

  it('pretty-prints by default and not with prettyPrint=false', async () => {
    const pretty = await call(emulator(), `videos?part=id&id=${HINDI_VIDEO_ID}`);
    const compact = await call(emulator(), `videos?part=id&id=${HINDI_VIDEO_ID}&prettyPrint=false`);
    expect(pretty.text).toMatch(/^\{\n {2}"kind": "youtube#videoListResponse",/);
    expect(compact.text).toMatch(/^\{"kind":"youtube#videoListResponse",/);
    expect(compact.body).toEqual(pretty.body);
  });
});

describe('part and fields', () => {
  it('returns only the requested parts (plus kind, etag, id)', async () => {
    const e = emulator();
    const snippetOnly = await call(e, `videos?part=snippet&id=${HINDI_VIDEO_ID}`);
    expect(Object.keys(snippetOnly.body.items[0])).toEqual(['kind', 'etag', 'id', 'snippet']);
    const idOnly = await call(e, `videos?part=id&id=${HINDI_VIDEO_ID}`);
    expect(Object.keys(idOnly.body.items[0])).toEqual(['kind', 'etag', 'id']);
    const spaced = await call(e, `videos?part=statistics,%20snippet&id=${HINDI_VIDEO_ID}`);
    expect(Object.keys(spaced.body.items[0])).toEqual(['kind', 'etag', 'id', 'snippet', 'statistics']);
  });

  it('answers a missing part with 400 required, in Google error shape', async () => {
    const { status, body } = await call(emulator(), `videos?id=${HINDI_VIDEO_ID}`);
    expect(status).toBe(400);
    expect(body).toEqual({
      error: {
        code: 400,
        message: 'Required parameter: part',
        errors: [
          {
            message: 'Required parameter: part',
            domain: 'global',
            reason: 'required',
            location: 'part',
            locationType: 'parameter',
          },
        ],
        status: 'INVALID_ARGUMENT',
      },
    });
  });

  it('answers an unknown part with 400 unknownPart naming it', async () => {
    const { status, body } = await call(emulator(), `videos?part=snippets&id=${HINDI_VIDEO_ID}`);
    expect(status).toBe(400);
    expect(body.error.message).toBe("'snippets'");
    expect(body.error.errors[0]).toMatchObject({ domain: 'youtube.part', reason: 'unknownPart', location: 'part' });
  });

  it('applies the fields selector items(id,snippet(title,tags)),nextPageToken', async () => {
    const fields = encodeURIComponent('items(id,snippet(title,tags)),nextPageToken');
    const { body } = await call(
      emulator(),
      `videos?part=snippet,statistics&chart=mostPopular&regionCode=IN&maxResults=3&fields=${fields}`,
    );
    expect(Object.keys(body)).toEqual(['items', 'nextPageToken']);
    expect(body.items).toHaveLength(3);
    expect(body.items[0]).toEqual({
      id: HINDI_VIDEO_ID,
      snippet: { title: expect.stringContaining('दिल की बातें'), tags: expect.any(Array) },
    });
    // The second video has no tags: the selection cannot invent them.
    expect(body.items[1]).toEqual({ id: NO_TAGS_VIDEO_ID, snippet: { title: expect.any(String) } });
  });

  it('accepts the a/b path form and the * wildcard', async () => {
    const e = emulator();
    const path = await call(
      e,
      `videos?part=snippet,statistics&id=${HINDI_VIDEO_ID}&fields=items/statistics/viewCount,pageInfo`,
    );
    expect(path.body).toEqual({
      items: [{ statistics: { viewCount: '4821377' } }],
      pageInfo: { totalResults: 1, resultsPerPage: 1 },
    });
    const star = await call(e, `videos?part=statistics&id=${HINDI_VIDEO_ID}&fields=items(*)`);
    expect(Object.keys(star.body.items[0])).toEqual(['kind', 'etag', 'id', 'statistics']);
  });

  it('answers a fields value that does not parse with 400 invalidParameter', async () => {
    const { status, body } = await call(
      emulator(),
      `videos?part=id&id=${HINDI_VIDEO_ID}&fields=${encodeURIComponent('items(id')}`,
    );
    expect(status).toBe(400);
    expect(body.error.errors[0]).toMatchObject({ reason: 'invalidParameter', location: 'fields' });
  });
});

describe('filters: exactly one of chart, id, myRating', () => {
  it('answers no filter with 400 missingRequiredParameter', async () => {
    const { status, body } = await call(emulator(), 'videos?part=id');
    expect(status).toBe(400);
    expect(body.error.message).toBe('No filter selected. Expected one of: chart, id, myRating');
    expect(body.error.errors[0].reason).toBe('missingRequiredParameter');
  });

  it('answers two filters with 400 incompatibleParameters', async () => {
    const { status, body } = await call(emulator(), `videos?part=id&id=${HINDI_VIDEO_ID}&chart=mostPopular`);
    expect(status).toBe(400);
    expect(body.error.errors[0].reason).toBe('incompatibleParameters');
    expect(body.error.message).toBe('Incompatible parameters specified in the request: id, chart');
  });

  it('answers myRating (OAuth only) with 401 authorizationRequired', async () => {
    const { status, body } = await call(emulator(), 'videos?part=id&myRating=like');
    expect(status).toBe(401);
    expect(body.error.errors[0]).toMatchObject({ reason: 'authorizationRequired', location: 'myRating' });
    expect(body.error.status).toBe('UNAUTHENTICATED');
  });

  it('answers an unknown chart with 400 videoChartNotFound', async () => {
    const { status, body } = await call(emulator(), 'videos?part=id&chart=trending');
    expect(status).toBe(400);
    expect(body.error.errors[0].reason).toBe('videoChartNotFound');
  });
});

describe('chart=mostPopular', () => {
  async function walk(e: UpstreamEmulator, query: string): Promise<{ ids: string[]; pages: Json[] }> {
    const ids: string[] = [];
    const pages: Json[] = [];
    let token: string | undefined;
    do {
      const { body } = await call(e, `videos?part=id&chart=mostPopular&${query}${token ? `&pageToken=${token}` : ''}`);
      pages.push(body);
      ids.push(...body.items.map((i: Json) => i.id));
      token = body.nextPageToken;
    } while (token);
    return { ids, pages };
  }

  it('walks the whole chart in pages of 50 with upstream-shaped tokens', async () => {
    const e = emulator();
    const { ids, pages } = await walk(e, 'regionCode=IN&maxResults=50');
    expect(ids).toEqual(fixtureDataset.charts.IN);
    expect(ids).toHaveLength(FIXTURE_CHART_SIZES.IN);
    expect(pages.map((p) => p.items.length)).toEqual([50, 50, 20]);
    expect(pages.map((p) => p.nextPageToken)).toEqual(['CDIQAA', 'CGQQAA', undefined]);
    expect(pages.map((p) => p.prevPageToken)).toEqual([undefined, 'CDIQAQ', 'CGQQAQ']);
    expect(pages[0].pageInfo).toEqual({ totalResults: 120, resultsPerPage: 50 });
    expect(Object.keys(pages[1])).toEqual(['kind', 'etag', 'items', 'nextPageToken', 'prevPageToken', 'pageInfo']);
    expect(e.calls.map((c) => c.params.pageToken)).toEqual([undefined, 'CDIQAA', 'CGQQAA']);
  });

  it('defaults to 5 per page (the token for page two is CAUQAA, as upstream) and walks back with prevPageToken', async () => {
    const e = emulator();
    const first = await call(e, 'videos?part=id&chart=mostPopular&regionCode=US');
    expect(first.body.items).toHaveLength(5);
    expect(first.body.nextPageToken).toBe('CAUQAA');
    const second = await call(e, 'videos?part=id&chart=mostPopular&regionCode=US&pageToken=CAUQAA');
    const back = await call(e, `videos?part=id&chart=mostPopular&regionCode=US&pageToken=${second.body.prevPageToken}`);
    expect(back.body.items).toEqual(first.body.items);
  });

  it('walks a chart longer than 127 items (two-byte varint tokens) without gaps', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `v${String(i).padStart(10, '0')}`);
    const videos = ids.map((id) => ({ kind: 'youtube#video' as const, etag: 'e', id }));
    const e = createUpstreamEmulator({ videos, channels: [], charts: { IN: ids } });
    const { ids: walked, pages } = await walk(e, 'regionCode=IN&maxResults=50&key=k');
    expect(walked).toEqual(ids);
    expect(pages[2].nextPageToken).toBe('CJYBEAA');
  });

  it('refuses maxResults outside 1–50 and page tokens it never issued', async () => {
    const e = emulator();
    for (const bad of ['0', '51', 'ten', '2.5']) {
      const { status, body } = await call(e, `videos?part=id&chart=mostPopular&regionCode=IN&maxResults=${bad}`);
      expect(status).toBe(400);
      expect(body.error.errors[0]).toMatchObject({ reason: 'invalidParameter', location: 'maxResults' });
    }
    const { status, body } = await call(e, 'videos?part=id&chart=mostPopular&regionCode=IN&pageToken=notAToken');
    expect(status).toBe(400);
    expect(body.error.errors[0].reason).toBe('invalidPageToken');
  });

  it('treats regionCode case-insensitively, defaults to US, gives an unknown region an empty chart, and refuses a malformed one', async () => {
    const e = emulator();
    const lower = await call(e, 'videos?part=id&chart=mostPopular&regionCode=in&maxResults=2');
    expect(lower.body.items.map((i: Json) => i.id)).toEqual(fixtureDataset.charts.IN?.slice(0, 2));
    const none = await call(e, 'videos?part=id&chart=mostPopular&maxResults=1');
    expect(none.body.items[0].id).toBe(fixtureDataset.charts.US?.[0]);
    const unknown = await call(e, 'videos?part=id&chart=mostPopular&regionCode=ZZ');
    expect(unknown.status).toBe(200);
    expect(unknown.body.items).toEqual([]);
    expect(unknown.body).not.toHaveProperty('nextPageToken');
    const malformed = await call(e, 'videos?part=id&chart=mostPopular&regionCode=IND');
    expect(malformed.status).toBe(400);
  });

  it('narrows by videoCategoryId: the dataset category chart when given, else a filter on snippet.categoryId', async () => {
    const e = emulator();
    const music = await walkAll(e, 'regionCode=IN&videoCategoryId=10');
    expect(music).toEqual(fixtureDataset.categoryCharts?.IN?.['10']);
    expect(music.some((id) => !fixtureDataset.charts.IN?.includes(id))).toBe(true);
    const usEntertainment = await walkAll(e, 'regionCode=US&videoCategoryId=24');
    const byId = new Map(fixtureDataset.videos.map((v) => [v.id, v]));
    expect(usEntertainment.length).toBeGreaterThan(0);
    expect(usEntertainment.every((id) => byId.get(id)?.snippet?.categoryId === '24')).toBe(true);
  });

  it('answers videoChartNotFound for a category missing from a region that has category charts, and lists categories', async () => {
    const e = emulator();
    const missing = await call(e, 'videos?part=id&chart=mostPopular&regionCode=IN&videoCategoryId=17');
    expect(missing.status).toBe(400);
    expect(missing.body.error.errors[0]).toMatchObject({ reason: 'videoChartNotFound', domain: 'youtube.video' });
    const categories = createUpstreamEmulator(
      {
        ...fixtureDataset,
        videoCategories: {
          IN: [
            { id: '10', title: 'Music', assignable: true },
            { id: '18', title: 'Short Movies', assignable: false },
          ],
        },
      },
      { validKeys: [KEY] },
    );
    const listed = await call(
      categories,
      'videoCategories?part=snippet&regionCode=in&hl=en&fields=kind,items(id,snippet(title,assignable))',
    );
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      kind: 'youtube#videoCategoryListResponse',
      items: [
        { id: '10', snippet: { title: 'Music', assignable: true } },
        { id: '18', snippet: { title: 'Short Movies', assignable: false } },
      ],
    });
    expect((await call(categories, 'videoCategories?part=snippet&regionCode=NG')).body.items).toEqual([]);
    expect((await call(categories, 'videoCategories?part=snippet')).status).toBe(400);
    expect(categories.unitsSpent()).toBe(3);
  });

  async function walkAll(e: UpstreamEmulator, query: string): Promise<string[]> {
    return (await walk(e, `${query}&maxResults=50`)).ids;
  }
});

describe('channels.list', () => {
  it('finds a channel by id, with every part in the wire format (pageInfo.resultsPerPage stays 5)', async () => {
    const { body } = await call(
      emulator(),
      `channels?part=snippet,contentDetails,statistics,brandingSettings&id=${HANDLE_CHANNEL.id}`,
    );
    expect(Object.keys(body)).toEqual(['kind', 'etag', 'pageInfo', 'items']);
    expect(body.kind).toBe('youtube#channelListResponse');
    expect(body.pageInfo).toEqual({ totalResults: 1, resultsPerPage: 5 });
    const [c] = body.items;
    expect(c.snippet.customUrl).toBe('@desibeatsmusic');
    expect(c.statistics.subscriberCount).toBe('41200000');
    expect(c.contentDetails.relatedPlaylists.uploads).toBe(`UU${HANDLE_CHANNEL.id.slice(2)}`);
    expect(c.brandingSettings.channel.keywords).toContain('"hindi songs"');
  });

  it('finds by handle with or without @, in any case, including a Devanagari handle', async () => {
    const e = emulator();
    for (const handle of ['@desibeatsmusic', 'desibeatsmusic', '@DesiBeatsMusic']) {
      const { body } = await call(e, `channels?part=id&forHandle=${encodeURIComponent(handle)}`);
      expect(body.items?.[0]?.id, handle).toBe(HANDLE_CHANNEL.id);
    }
    const { body } = await call(
      e,
      `channels?part=snippet&forHandle=${encodeURIComponent(NON_LATIN_HANDLE_CHANNEL.handle)}`,
    );
    expect(body.items[0].id).toBe(NON_LATIN_HANDLE_CHANNEL.id);
  });

  it('finds a legacy username case-insensitively', async () => {
    const { body } = await call(emulator(), 'channels?part=id&forUsername=rangeelarecords');
    expect(body.items[0].id).toBe(USERNAME_CHANNEL.id);
  });

  it('leaves items out entirely when nothing matches, as upstream does', async () => {
    const e = emulator();
    for (const query of [
      `forHandle=${encodeURIComponent(MISSING_HANDLE)}`,
      'forUsername=nobodyhere',
      'id=UCxxxxxxxxxxxxxxxxxxxxxx',
    ]) {
      const { status, body } = await call(e, `channels?part=snippet&${query}`);
      expect(status).toBe(200);
      expect(body).not.toHaveProperty('items');
      expect(body.pageInfo).toEqual({ totalResults: 0, resultsPerPage: 5 });
    }
  });

  it('does not find a channel whose customUrl is a bare legacy name by forHandle', async () => {
    const { body } = await call(emulator(), `channels?part=id&forHandle=@${SEARCH_ONLY_CHANNEL.customName}`);
    expect(body).not.toHaveProperty('items');
  });

  it('hides subscribers as upstream does: hiddenSubscriberCount true, subscriberCount absent', async () => {
    const { body } = await call(emulator(), `channels?part=statistics&id=${HIDDEN_SUBSCRIBERS_CHANNEL.id}`);
    expect(body.items[0].statistics.hiddenSubscriberCount).toBe(true);
    expect(body.items[0].statistics).not.toHaveProperty('subscriberCount');
  });

  it('validates its filters like videos.list', async () => {
    const e = emulator();
    const none = await call(e, 'channels?part=id');
    expect(none.status).toBe(400);
    expect(none.body.error.errors[0].reason).toBe('missingRequiredParameter');
    const two = await call(e, `channels?part=id&forHandle=@a&forUsername=b`);
    expect(two.body.error.errors[0].reason).toBe('incompatibleParameters');
    const mine = await call(e, 'channels?part=id&mine=true');
    expect(mine.status).toBe(401);
  });
});

describe('search.list', () => {
  it('finds channels whose title or customUrl contains q, the exact customUrl first, lookalikes too, without customUrl', async () => {
    const e = emulator();
    const { body } = await call(e, `search?part=snippet&type=channel&q=${SEARCH_ONLY_CHANNEL.customName}&maxResults=5`);
    expect(body.kind).toBe('youtube#searchListResponse');
    expect(body.items.map((i: Json) => i.id.channelId)).toEqual([SEARCH_ONLY_CHANNEL.id, SEARCH_DECOY_CHANNEL.id]);
    const [first] = body.items;
    expect(first.id.kind).toBe('youtube#channel');
    expect(first.snippet).not.toHaveProperty('customUrl');
    expect(first.snippet.thumbnails.default).toEqual({ url: expect.stringMatching(/^https:\/\//) });
    expect(e.calls[0]).toMatchObject({ bucket: 'search', units: 1 });
    expect(e.searchesSpent()).toBe(1);
    expect(e.unitsSpent()).toBe(0);
  });

  it('returns nothing for a type without channels and requires part', async () => {
    const e = emulator();
    const videosOnly = await call(e, 'search?part=snippet&type=video&q=cricket');
    expect(videosOnly.body.items).toEqual([]);
    const noPart = await call(e, 'search?type=channel&q=cricket');
    expect(noPart.status).toBe(400);
    expect(e.searchesSpent()).toBe(2);
  });
});

describe('the API key', () => {
  it('answers no key with 403 and the unregistered-caller body', async () => {
    const e = emulator();
    const res = await e.fetch(`${API}videos?part=id&id=${HINDI_VIDEO_ID}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: {
        code: 403,
        message:
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        errors: [
          {
            message:
              "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
            domain: 'global',
            reason: 'forbidden',
          },
        ],
        status: 'PERMISSION_DENIED',
      },
    });
    expect(e.calls[0]).toMatchObject({ keySource: null, status: 403, units: 1 });
  });

  it('answers a key outside validKeys with 400 keyInvalid', async () => {
    const e = emulator();
    const { status, body } = await call(e, `videos?part=id&id=${HINDI_VIDEO_ID}`, {
      headers: { 'X-Goog-Api-Key': 'AIzaWRONG' },
    });
    expect(status).toBe(400);
    expect(body.error.message).toBe('API key not valid. Please pass a valid API key.');
    expect(body.error.errors[0].reason).toBe('keyInvalid');
  });

  it('accepts any key when no validKeys are given', async () => {
    const e = createUpstreamEmulator(fixtureDataset);
    const res = await e.fetch(`${API}videos?part=id&id=${HINDI_VIDEO_ID}&key=anything`);
    expect(res.status).toBe(200);
  });

  it('records where the key travelled but never the key itself', async () => {
    const e = emulator();
    await e.fetch(`${API}videos?part=id&id=${HINDI_VIDEO_ID}&key=${KEY}`);
    await call(e, `channels?part=id&forHandle=@desibeatsmusic`);
    expect(e.calls.map((c) => c.keySource)).toEqual(['query', 'header']);
    expect(e.calls[0]?.params).toEqual({ part: 'id', id: HINDI_VIDEO_ID });
    expect(JSON.stringify(e.calls)).not.toContain(KEY);
  });
});

describe('quota and bookkeeping', () => {
  it('charges 1 unit of the main pool per videos/channels call and 1 call of its own bucket per search, invalid requests included', async () => {
    const e = emulator();
    await call(e, `videos?part=snippet&id=${HINDI_VIDEO_ID}`);
    await call(e, 'videos?part=bogus&id=x');
    await e.fetch(`${API}channels?part=id&forHandle=@x`); // no key: still a request
    await call(e, 'search?part=snippet&type=channel&q=fans');
    expect(e.calls.map((c) => [c.resource, c.status, c.bucket, c.units])).toEqual([
      ['videos', 200, 'main', 1],
      ['videos', 400, 'main', 1],
      ['channels', 403, 'main', 1],
      ['search', 200, 'search', 1],
    ]);
    expect(e.unitsSpent()).toBe(3);
    expect(e.searchesSpent()).toBe(1);
  });

  it('forgets calls and units on reset(), keeping the calls array', async () => {
    const e = emulator();
    const calls = e.calls;
    await call(e, `videos?part=id&id=${HINDI_VIDEO_ID}`);
    e.reset();
    expect(e.unitsSpent()).toBe(0);
    expect(calls).toHaveLength(0);
    expect(e.calls).toBe(calls);
  });

  it('answers an unknown method with Google’s 404 page', async () => {
    const e = emulator();
    const res = await e.fetch(`${API}playlists?part=id&id=x`, { headers: { 'X-Goog-Api-Key': KEY } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('That’s an error.');
    expect(e.calls[0]?.resource).toBe('playlists');
  });

  it('serves a new dataset after setDataset', async () => {
    const e = emulator();
    e.setDataset({ videos: [], channels: [], charts: {} });
    const { body } = await call(e, `videos?part=id&id=${HINDI_VIDEO_ID}`);
    expect(body.items).toEqual([]);
  });

  it('takes a Request object, a URL or a string, like fetch', async () => {
    const e = emulator();
    const url = new URL(`${API}videos?part=id&id=${HINDI_VIDEO_ID}`);
    const viaRequest = await e.fetch(new Request(url, { headers: { 'x-goog-api-key': KEY } }));
    const viaUrl = await e.fetch(url, { headers: { 'x-goog-api-key': KEY } });
    const viaHandle = await e.handle(new Request(url, { headers: { 'x-goog-api-key': KEY } }));
    expect([viaRequest.status, viaUrl.status, viaHandle.status]).toEqual([200, 200, 200]);
  });
});
