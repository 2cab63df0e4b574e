import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeImage, encodeImage, fit, PlantImages } from './plant-images.js';

function rgba(width: number, height: number, px: (x: number, y: number) => [number, number, number, number]) {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set(px(x, y), (y * width + x) * 4);
  return { width, height, data };
}

describe('plant pictures', () => {
  it('downscales by averaging blocks, keeping the aspect, never upscaling', () => {
    // 4×2 checker of black/white columns → 2×1 of mid grey.
    const img = rgba(4, 2, (x) => (x % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255]));
    const out = fit(img, 2, 2);
    expect([out.width, out.height]).toEqual([2, 1]);
    expect([...out.data.slice(0, 4)]).toEqual([128, 128, 128, 255]);
    expect(fit(img, 100, 100)).toBe(img);
    const wide = fit(rgba(1000, 250, () => [1, 2, 3, 255]), 320, 240);
    expect([wide.width, wide.height]).toEqual([320, 80]);
  });

  it('decodes by the bytes, refuses what is not a jpg/png and oversized dimensions', () => {
    const png = new PNG({ width: 3, height: 2 });
    png.data.fill(9);
    const bytes = new Uint8Array(PNG.sync.write(png));
    expect(decodeImage(bytes)).toMatchObject({ kind: 'png', image: { width: 3, height: 2 } });
    expect(() => decodeImage(new TextEncoder().encode('GIF89a....'))).toThrow(expect.objectContaining({ code: 6 }));
    // A PNG header claiming 100000×100000 pixels is refused before decoding.
    const bomb = Buffer.from(bytes);
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    expect(() => decodeImage(new Uint8Array(bomb))).toThrow(expect.objectContaining({ code: 6 }));
    // A truncated JPEG.
    expect(() => decodeImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toThrow(expect.objectContaining({ code: 6 }));
  });

  it('re-encodes a JPEG (metadata dropped) and stores picture and thumbnail under random names', async () => {
    const src = rgba(640, 480, (x, y) => [x % 256, y % 256, 80, 255]);
    const raw = jpeg.encode({ width: 640, height: 480, data: Buffer.from(src.data) }, 90).data;
    // An APP1 "Exif" segment with a marker string right after SOI.
    const exif = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, 0x16]), Buffer.from('Exif\0\0GPS-SECRET-POS')]);
    const withExif = Buffer.concat([raw.subarray(0, 2), exif, raw.subarray(2)]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plant-img-'));
    const file = path.join(dir, 'upload');
    fs.writeFileSync(file, withExif);
    const images = new PlantImages(dir);
    const out = await images.store({ field: 'file', filename: 'p.jpg', mimetype: 'image/jpeg', path: file, size: withExif.length });
    expect(out.picBig).toMatch(/^\/files\/plant\/[0-9a-f]{32}\.jpg$/);
    const big = await images.read(path.basename(out.picBig));
    const small = await images.read(path.basename(out.picSmall));
    expect(big!.type).toBe('image/jpeg');
    expect(big!.bytes.includes('GPS-SECRET-POS')).toBe(false);
    const thumb = jpeg.decode(small!.bytes);
    expect([thumb.width, thumb.height]).toEqual([320, 240]);
    expect(await images.read('../upload')).toBeUndefined();
    expect(encodeImage('png', rgba(1, 1, () => [1, 2, 3, 4])).subarray(1, 4).toString()).toBe('PNG');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
