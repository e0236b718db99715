/**
 * The compressed forms of a built file: the build's step (off the event loop) writes the same bytes the Node
 * adapter would make itself at the same effort, and what is not worth compressing gets no forms either way.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressedForms, compressedFormsOffThread } from '../../functions/precompressed.ts';

const PAGE = Buffer.from(
  `<!doctype html><html lang="bn"><body>${'<tr><td lang="hi">क्रिकेट</td><td>১২৩</td></tr>'.repeat(200)}</body></html>`,
);

describe('compressedFormsOffThread', () => {
  it('makes the bytes compressedForms makes, which decompress to the file', async () => {
    const offThread = await compressedFormsOffThread('index.html', PAGE, 'build');
    const inline = compressedForms('index.html', PAGE, 'build');
    expect(offThread).not.toBeNull();
    expect(Buffer.compare(offThread!.brotli, inline!.brotli)).toBe(0);
    expect(Buffer.compare(offThread!.gzip, inline!.gzip)).toBe(0);
    expect(brotliDecompressSync(offThread!.brotli).equals(PAGE)).toBe(true);
    expect(gunzipSync(offThread!.gzip).equals(PAGE)).toBe(true);
    expect(offThread!.brotli.length).toBeLessThan(PAGE.length / 5);
  });

  it('gives no forms for a type not worth compressing or a file under 1 KB', async () => {
    expect(await compressedFormsOffThread('font.woff2', PAGE, 'build')).toBeNull();
    expect(await compressedFormsOffThread('small.html', PAGE.subarray(0, 1023), 'build')).toBeNull();
    expect(compressedForms('small.html', PAGE.subarray(0, 1023), 'build')).toBeNull();
  });
});
