/**
 * Links people paste with an `&` where the `?` belongs resolve to their video over real HTTP; a link whose
 * `v=` values conflict is still refused with its message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { fixtureDataset, HINDI_VIDEO_ID } from '../fixtures/upstream-dataset.ts';

let server: TestServer;

beforeAll(async () => {
  const template = fixtureDataset.videos.find((video) => video.id === HINDI_VIDEO_ID)!;
  const videos = [...fixtureDataset.videos, { ...template, id: 'VM_6n762j6M' }, { ...template, id: 'G-3YxlZIhus' }];
  server = await startTestServer({ dataset: { ...fixtureDataset, videos } });
});
afterAll(async () => {
  await server?.close();
});

const api = (endpoint: string, link: string) => server.get(`/api/v1/${endpoint}?url=${encodeURIComponent(link)}`);

describe('a query glued on with & instead of ?', () => {
  it.each([
    ['https://youtu.be/VM_6n762j6M&t=20', 'VM_6n762j6M'],
    ['http://youtu.be/G-3YxlZIhus&feature=channel', 'G-3YxlZIhus'],
  ])('%s resolves to %s on video and tags', async (link, id) => {
    const video = await api('video', link);
    expect(video.status).toBe(200);
    expect(((await video.json()) as { data: { id: string } }).data.id).toBe(id);
    const tags = await api('tags', link);
    expect(tags.status).toBe(200);
    expect(((await tags.json()) as { data: { video_id: string } }).data.video_id).toBe(id);
  });

  it('conflicting v= values stay a 422 that says so', async () => {
    const answer = await api('video', 'https://youtu.be/VM_6n762j6M&v=G-3YxlZIhus');
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { error: string }).error).toMatch(/more than one different v= parameter/);
  });
});
