import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiError, FILE_LIMITS } from '@sunwatch/protocol';
import type { DbHandle } from '../../db/transaction.js';
import type { UploadedFile } from '../../http/registry.js';
import { decodeImage, encodeImage, fit } from '../../shared/images.js';

export { decodeImage, encodeImage, fit, type Rgba } from '../../shared/images.js';

/**
 * Plant pictures (issue 10). A jpg/png of at most 1 MB is checked by its bytes (not its name),
 * decoded, re-encoded (which drops EXIF and other metadata — a phone photo's GPS position among
 * them) and stored with a server-made thumbnail in `<DATA_DIR>/plant-images/`, outside the
 * database. Each file is named by 128 random bits and served at `/files/plant/<name>`: the URL
 * is the capability (unguessable, never listed), handed only to callers who may see the plant
 * (queryPlantInfo picBig/picSmall) or who uploaded it.
 */

/** Thumbnails fit in this box, aspect kept. */
export const THUMB_WIDTH = 320;
export const THUMB_HEIGHT = 240;
/** Longest side of the stored picture. */
const BIG_MAX_SIDE = 2048;

export const PLANT_IMAGE_ROUTE = '/files/plant';
const NAME = /^[0-9a-f]{32}(?:-s)?\.(?:jpg|png)$/;

/** The stored file name of a plant picture URL (`/files/plant/<name>`), else undefined. */
export function pictureName(url: string | null | undefined): string | undefined {
  if (!url || !url.startsWith(`${PLANT_IMAGE_ROUTE}/`)) return undefined;
  const name = url.slice(PLANT_IMAGE_ROUTE.length + 1);
  return NAME.test(name) ? name : undefined;
}

/** Uploads no plant shows are removed once older than this (the time to fill in the plant form). */
export const UNATTACHED_PICTURE_TTL_MS = 24 * 3600_000;

export class PlantImages {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'plant-images');
  }

  async store(file: UploadedFile | undefined): Promise<{ picBig: string; picSmall: string; width: number; height: number }> {
    if (!file) throw new ApiError(7, 'file');
    if (file.size > FILE_LIMITS.PROJECT_IMAGE_BYTES) throw new ApiError(13, 'file');
    const bytes = new Uint8Array(await fs.promises.readFile(file.path));
    const { kind, image } = decodeImage(bytes);
    const big = fit(image, BIG_MAX_SIDE, BIG_MAX_SIDE);
    const thumb = fit(image, THUMB_WIDTH, THUMB_HEIGHT);
    const id = crypto.randomBytes(16).toString('hex');
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fs.promises.writeFile(path.join(this.dir, `${id}.${kind}`), encodeImage(kind, big), { mode: 0o600 });
    await fs.promises.writeFile(path.join(this.dir, `${id}-s.${kind}`), encodeImage(kind, thumb), { mode: 0o600 });
    return {
      picBig: `${PLANT_IMAGE_ROUTE}/${id}.${kind}`,
      picSmall: `${PLANT_IMAGE_ROUTE}/${id}-s.${kind}`,
      width: big.width,
      height: big.height,
    };
  }

  /**
   * Removes the files of these picture URLs (others than plant picture URLs are ignored, a file
   * already gone too). Returns the names removed. Never throws: a file that could not be
   * removed stays for the periodic sweep.
   */
  async remove(urls: Iterable<string>): Promise<string[]> {
    const removed: string[] = [];
    for (const name of new Set([...urls].map(pictureName).filter((n): n is string => n !== undefined))) {
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
   * The periodic clean-up: removes every stored picture that no plant shows (`inUse`: URLs) and
   * that was written before `before` (ms) — uploads never attached to a plant, pictures replaced
   * or of deleted plants whose removal failed or was missed. Returns the names removed.
   */
  async sweep(inUse: ReadonlySet<string>, before: number): Promise<string[]> {
    const keep = new Set([...inUse].map(pictureName).filter((n): n is string => n !== undefined));
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch {
      return [];
    }
    const stale: string[] = [];
    for (const name of names) {
      if (!NAME.test(name) || keep.has(name)) continue;
      try {
        const st = await fs.promises.stat(path.join(this.dir, name));
        if (st.mtimeMs < before) stale.push(`${PLANT_IMAGE_ROUTE}/${name}`);
      } catch {
        // removed meanwhile
      }
    }
    return this.remove(stale);
  }

  /** The stored file of a served name, or undefined (bad name or missing file). */
  async read(name: string): Promise<{ bytes: Buffer; type: string } | undefined> {
    if (!NAME.test(name)) return undefined;
    try {
      const bytes = await fs.promises.readFile(path.join(this.dir, name));
      return { bytes, type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' };
    } catch {
      return undefined;
    }
  }
}

/** Removes the pictures a plant write dropped (replaced, cleared, or of a deleted plant). */
export interface PlantPictureDiscard {
  discard(urls: readonly string[]): Promise<void>;
}

/**
 * Picture removal tied to the write that dropped them: queued until the action's transaction has
 * ended (`dbh.durable`), then only the pictures no plant shows at that point are removed — so a
 * rolled-back edit keeps its picture, and a picture another plant also shows stays.
 */
export function pictureDiscarder(
  images: Pick<PlantImages, 'remove'>,
  dbh: Pick<DbHandle, 'durable'>,
  inUse: (urls: readonly string[]) => Promise<Set<string>>,
): PlantPictureDiscard {
  return {
    async discard(urls) {
      const ours = [...new Set(urls.filter((u) => pictureName(u) !== undefined))];
      if (ours.length === 0) return;
      await dbh.durable(async () => {
        const used = await inUse(ours);
        await images.remove(ours.filter((u) => !used.has(u)));
      });
    },
  };
}
