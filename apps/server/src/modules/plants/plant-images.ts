import path from 'node:path';
import { FILE_LIMITS } from '@sunwatch/protocol';
import type { DbHandle } from '../../db/transaction.js';
import type { UploadedFile } from '../../http/registry.js';
import { ImageFolder, STORED_IMAGE_NAME } from '../../shared/images.js';

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

/** The stored file name of a plant picture URL (`/files/plant/<name>`), else undefined. */
export function pictureName(url: string | null | undefined): string | undefined {
  if (!url || !url.startsWith(`${PLANT_IMAGE_ROUTE}/`)) return undefined;
  const name = url.slice(PLANT_IMAGE_ROUTE.length + 1);
  return STORED_IMAGE_NAME.test(name) ? name : undefined;
}

/** Uploads no plant shows are removed once older than this (the time to fill in the plant form). */
export const UNATTACHED_PICTURE_TTL_MS = 24 * 3600_000;

export class PlantImages {
  readonly dir: string;

  private readonly folder: ImageFolder;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'plant-images');
    this.folder = new ImageFolder(this.dir, {
      maxBytes: FILE_LIMITS.PROJECT_IMAGE_BYTES,
      maxSide: BIG_MAX_SIDE,
      thumbWidth: THUMB_WIDTH,
      thumbHeight: THUMB_HEIGHT,
    });
  }

  async store(file: UploadedFile | undefined): Promise<{ picBig: string; picSmall: string; width: number; height: number }> {
    const r = await this.folder.store(file);
    return { picBig: `${PLANT_IMAGE_ROUTE}/${r.big}`, picSmall: `${PLANT_IMAGE_ROUTE}/${r.thumb}`, width: r.width, height: r.height };
  }

  /**
   * Removes the files of these picture URLs (others than plant picture URLs are ignored, a file
   * already gone too). Returns the names removed. Never throws: a file that could not be
   * removed stays for the periodic sweep.
   */
  remove(urls: Iterable<string>): Promise<string[]> {
    const names = [...urls].map(pictureName).filter((n): n is string => n !== undefined);
    return this.folder.remove(names);
  }

  /**
   * The periodic clean-up: removes every stored picture that no plant shows (`inUse`: URLs) and
   * that was written before `before` (ms) — uploads never attached to a plant, pictures replaced
   * or of deleted plants whose removal failed or was missed. Returns the names removed.
   */
  sweep(inUse: ReadonlySet<string>, before: number): Promise<string[]> {
    const keep = new Set([...inUse].map(pictureName).filter((n): n is string => n !== undefined));
    return this.folder.sweep(keep, before);
  }

  /** The stored file of a served name, or undefined (bad name or missing file). */
  read(name: string): Promise<{ bytes: Buffer; type: string } | undefined> {
    return this.folder.read(name);
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
