/**
 * Still images uploaded by people (plant pictures, avatars): jpg/png recognised by their bytes,
 * decoded with a pixel ceiling, scaled to fit a box and re-encoded (which drops EXIF and other
 * metadata). Shared by the plant and account modules.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { UploadedFile } from '../http/registry.js';

/** The largest picture decoded (pixels): a small file can claim huge dimensions. */
const MAX_PIXELS = 40_000_000;

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

type Kind = 'jpg' | 'png';

function kindOf(bytes: Uint8Array): Kind | undefined {
  if (bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  return undefined;
}

/** PNG dimensions from the IHDR chunk, checked before decoding. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

export function decodeImage(bytes: Uint8Array): { kind: Kind; image: Rgba } {
  const kind = kindOf(bytes);
  if (!kind) throw new ApiError(6, 'file');
  try {
    if (kind === 'png') {
      const { width, height } = pngSize(bytes);
      if (width * height > MAX_PIXELS || width === 0 || height === 0) throw new ApiError(6, 'file');
      const png = PNG.sync.read(Buffer.from(bytes));
      return { kind, image: { width: png.width, height: png.height, data: new Uint8Array(png.data) } };
    }
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1e6, maxMemoryUsageInMB: 512 });
    return { kind, image: { width: img.width, height: img.height, data: img.data } };
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(6, 'file');
  }
}

/** Box-filter downscale so that the image fits in w×h (never upscales). */
export function fit(src: Rgba, maxW: number, maxH: number): Rgba {
  const scale = Math.min(1, maxW / src.width, maxH / src.height);
  if (scale === 1) return src;
  const w = Math.max(1, Math.round(src.width * scale));
  const h = Math.max(1, Math.round(src.height * scale));
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * src.height) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * src.height) / h));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * src.width) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * src.width) / w));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let sy = y0; sy < y1; sy++) {
        let i = (sy * src.width + x0) * 4;
        for (let sx = x0; sx < x1; sx++, i += 4) {
          r += src.data[i]!;
          g += src.data[i + 1]!;
          b += src.data[i + 2]!;
          a += src.data[i + 3]!;
          n++;
        }
      }
      const o = (y * w + x) * 4;
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
      out[o + 3] = Math.round(a / n);
    }
  }
  return { width: w, height: h, data: out };
}

export function encodeImage(kind: Kind, img: Rgba): Buffer {
  if (kind === 'jpg') return jpeg.encode({ width: img.width, height: img.height, data: Buffer.from(img.data) }, 85).data;
  const png = new PNG({ width: img.width, height: img.height });
  png.data = Buffer.from(img.data);
  return PNG.sync.write(png);
}


/** A stored picture's file name: 128 random bits, `-s` for its thumbnail. */
export const STORED_IMAGE_NAME = /^[0-9a-f]{32}(?:-s)?\.(?:jpg|png)$/;

/** How one kind of picture is kept: its size limit, the box of the picture and of its thumbnail. */
export interface ImageShape {
  maxBytes: number;
  maxSide: number;
  thumbWidth: number;
  thumbHeight: number;
}

/**
 * Pictures in one folder outside the database: checked by their bytes, re-encoded (no metadata
 * kept), stored with a server-made thumbnail under a random name, read back by that name.
 */
export class ImageFolder {
  constructor(
    readonly dir: string,
    private readonly shape: ImageShape,
  ) {}

  /** Stores an upload; the file names of the picture and its thumbnail. */
  async store(file: UploadedFile | undefined): Promise<{ big: string; thumb: string; width: number; height: number }> {
    if (!file) throw new ApiError(7, 'file');
    if (file.size > this.shape.maxBytes) throw new ApiError(13, 'file');
    const bytes = new Uint8Array(await fs.promises.readFile(file.path));
    const { kind, image } = decodeImage(bytes);
    const big = fit(image, this.shape.maxSide, this.shape.maxSide);
    const thumb = fit(image, this.shape.thumbWidth, this.shape.thumbHeight);
    const id = crypto.randomBytes(16).toString('hex');
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fs.promises.writeFile(path.join(this.dir, `${id}.${kind}`), encodeImage(kind, big), { mode: 0o600 });
    await fs.promises.writeFile(path.join(this.dir, `${id}-s.${kind}`), encodeImage(kind, thumb), { mode: 0o600 });
    return { big: `${id}.${kind}`, thumb: `${id}-s.${kind}`, width: big.width, height: big.height };
  }

  /**
   * Removes these stored files (names of other forms are ignored, a file already gone too).
   * Returns the names removed. Never throws: a file that could not be removed stays for the sweep.
   */
  async remove(names: Iterable<string>): Promise<string[]> {
    const removed: string[] = [];
    for (const name of new Set(names)) {
      if (!STORED_IMAGE_NAME.test(name)) continue;
      try {
        await fs.promises.unlink(path.join(this.dir, name));
        removed.push(name);
      } catch {
        // ENOENT: already gone; anything else: the sweep retries
      }
    }
    return removed;
  }

  /**
   * The periodic clean-up of the folder: removes every stored file not in `keep` (names) that was
   * written before `before` (ms). Returns the names removed.
   */
  async sweep(keep: ReadonlySet<string>, before: number): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch {
      return [];
    }
    const stale: string[] = [];
    for (const name of names) {
      if (!STORED_IMAGE_NAME.test(name) || keep.has(name)) continue;
      try {
        const st = await fs.promises.stat(path.join(this.dir, name));
        if (st.mtimeMs < before) stale.push(name);
      } catch {
        // removed meanwhile
      }
    }
    return this.remove(stale);
  }

  /** The stored file of a served name, or undefined (bad name or missing file). */
  async read(name: string): Promise<{ bytes: Buffer; type: string } | undefined> {
    if (!STORED_IMAGE_NAME.test(name)) return undefined;
    try {
      const bytes = await fs.promises.readFile(path.join(this.dir, name));
      return { bytes, type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' };
    } catch {
      return undefined;
    }
  }
}

/**
 * GET <route>/<name>: a stored picture or thumbnail. The random name is the capability; anything
 * else is 404. Immutable content: cached by browsers for a day.
 */
export function registerImageRoute(app: FastifyInstance, route: string, folder: Pick<ImageFolder, 'read'>): void {
  app.get<{ Params: { name: string } }>(`${route}/:name`, async (request, reply) => {
    const file = await folder.read(request.params.name);
    if (!file) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type(file.type)
      .header('Cache-Control', 'private, max-age=86400, immutable')
      .header('X-Content-Type-Options', 'nosniff')
      .send(file.bytes);
  });
}
