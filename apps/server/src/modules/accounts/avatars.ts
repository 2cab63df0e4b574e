import path from 'node:path';
import { AVATAR_ROUTE, AVATAR_URL, FILE_LIMITS, type AvatarDat } from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import type { UploadedFile } from '../../http/registry.js';
import { ImageFolder, registerImageRoute } from '../../shared/images.js';

/**
 * Avatars (issue 12, personal settings): stored like plant pictures (shared/images.ts). A jpg/png of at most 8 MB (spec §5 images) is checked by its
 * bytes (not its name or type), decoded, re-encoded (metadata such as a phone photo's GPS
 * position dropped), scaled to at most 1024 px and stored with a 128 × 128 thumbnail in
 * `<DATA_DIR>/avatars/`, outside the database, under 128 random bits served at
 * `/files/avatar/<name>` (the URL is the capability, never listed).
 */
export const AVATAR_MAX_SIDE = 1024;
export const AVATAR_THUMB_SIDE = 128;

export class AccountAvatars {
  readonly dir: string;
  private readonly folder: ImageFolder;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'avatars');
    this.folder = new ImageFolder(this.dir, {
      maxBytes: FILE_LIMITS.IMAGE_BYTES,
      maxSide: AVATAR_MAX_SIDE,
      thumbWidth: AVATAR_THUMB_SIDE,
      thumbHeight: AVATAR_THUMB_SIDE,
    });
  }

  async store(file: UploadedFile | undefined): Promise<AvatarDat> {
    const r = await this.folder.store(file);
    return { photo: `${AVATAR_ROUTE}/${r.big}`, thumb: `${AVATAR_ROUTE}/${r.thumb}`, width: r.width, height: r.height };
  }

  /** The stored file of a served name, or undefined (bad name or missing file). */
  read(name: string): Promise<{ bytes: Buffer; type: string } | undefined> {
    return this.folder.read(name);
  }

  /** Whether `url` names an avatar stored here (editAccount accepts no other local photo path). */
  async exists(url: string): Promise<boolean> {
    if (!AVATAR_URL.test(url)) return false;
    return (await this.read(url.slice(AVATAR_ROUTE.length + 1))) !== undefined;
  }
}

/** GET /files/avatar/<name>: a stored avatar or its thumbnail; anything else 404. */
export function registerAvatarRoutes(app: FastifyInstance, avatars: AccountAvatars): void {
  registerImageRoute(app, AVATAR_ROUTE, avatars);
}
