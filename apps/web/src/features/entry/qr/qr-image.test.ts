import QRCode from 'qrcode';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { QR_OPTIONS, qrDataUrl } from './qr-image';

function png(dataUrl: string): PNG {
  expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
  return PNG.sync.read(Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64'));
}

/** Dark (true) or light at the centre of module (row, col) of a code drawn with margin QR_OPTIONS.margin. */
function darkAt(img: PNG, modules: number, row: number, col: number): boolean {
  const cell = img.width / (modules + 2 * QR_OPTIONS.margin);
  const x = Math.floor((col + QR_OPTIONS.margin + 0.5) * cell);
  const y = Math.floor((row + QR_OPTIONS.margin + 0.5) * cell);
  return img.data[(y * img.width + x) * 4]! < 128;
}

describe('qrDataUrl (the one QR helper)', () => {
  it('draws exactly the QR symbol of the link at the asked size', async () => {
    const link = 'https://apps.example/aurora-android?ref=sunwatch';
    const img = png(await qrDataUrl(link, 164));
    expect([img.width, img.height]).toEqual([164, 164]);
    // the symbol the library makes of this text (its data segment is the link itself) …
    const sym = QRCode.create(link, { errorCorrectionLevel: QR_OPTIONS.errorCorrectionLevel });
    const bytes = sym.segments.flatMap((s) => Array.from((s as unknown as { data: Uint8Array }).data));
    expect(new TextDecoder().decode(new Uint8Array(bytes))).toBe(link);
    // … is what the image shows, module by module
    const n = sym.modules.size;
    let mismatches = 0;
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (darkAt(img, n, r, c) !== Boolean(sym.modules.get(r, c))) mismatches++;
    expect(mismatches).toBe(0);
  });

  it('differs per link, is stable per link, and refuses an empty text', async () => {
    const a = await qrDataUrl('https://apps.example/ios', 128);
    expect(await qrDataUrl('https://apps.example/ios', 128)).toBe(a);
    expect(await qrDataUrl('https://apps.example/android', 128)).not.toBe(a);
    await expect(qrDataUrl('', 128)).rejects.toThrow(/nothing to encode/);
  });
});
