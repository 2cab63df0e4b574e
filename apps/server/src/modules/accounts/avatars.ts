import path from 'node:path';
import { AVATAR_ROUTE, AVATAR_URL, FILE_LIMITS, avatarThumb, type AvatarDat } from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/db.js';
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

  /**
   * Removes the files of these avatar URLs, each with its thumbnail (other URLs are ignored).
   * Returns the file names removed; never throws (what stays is left to the sweep).
   */
  remove(urls: Iterable<string>): Promise<string[]> {
    return this.folder.remove([...urls].flatMap(avatarFiles));
  }

  /**
   * The periodic clean-up: removes every stored avatar file that no account shows (`inUse`:
   * photo URLs; a picture keeps its thumbnail) and that was written before `before` (ms) —
   * uploads never saved on a profile, avatars replaced or cleared whose removal failed, avatars
   * of deleted accounts. Returns the file names removed.
   */
  sweep(inUse: Iterable<string>, before: number): Promise<string[]> {
    return this.folder.sweep(new Set([...inUse].flatMap(avatarFiles)), before);
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

/** The stored files of an avatar URL: the picture and its thumbnail (a thumbnail URL: itself). */
export function avatarFiles(url: string | null | undefined): string[] {
  if (!url || !AVATAR_URL.test(url)) return [];
  const name = url.slice(AVATAR_ROUTE.length + 1);
  const thumb = avatarThumb(url)!.slice(AVATAR_ROUTE.length + 1);
  return thumb === name ? [name] : [name, thumb];
}

/** Uploads no profile shows are removed once older than this (the time to save the profile form). */
export const UNATTACHED_AVATAR_TTL_MS = 24 * 3600_000;
/** How often the avatar sweep runs (a job of the ingest runner). */
export const CLEAN_AVATARS_MS = 3600_000;

/** Avatar URLs some account shows (among `urls`, or all of them). */
async function avatarsInUse(db: Db, urls?: readonly string[]): Promise<Set<string>> {
  let q = db.selectFrom('accounts').select('photo').where('photo', 'like', `${AVATAR_ROUTE}/%`);
  if (urls) {
    if (urls.length === 0) return new Set();
    q = q.where('photo', 'in', [...urls]);
  }
  return new Set((await q.execute()).map((r) => r.photo));
}

/**
 * The sweep job: removes avatar files no account shows that are older than a day (an upload is
 * kept that long: its profile form may still be open). Returns the file names removed.
 */
export async function cleanAvatars(ctx: Pick<AppContext, 'db' | 'now' | 'services'>): Promise<string[]> {
  return ctx.services.avatars.sweep(await avatarsInUse(ctx.db), ctx.now() - UNATTACHED_AVATAR_TTL_MS);
}

/**
 * A profile write replaced or cleared `previous` (editAccount, editSubAccount, editDist): once
 * the action's transaction has ended (`durable`), its files are removed unless an account still
 * shows it — so a rolled-back edit keeps its avatar, and one another account also shows stays.
 */
export async function discardAvatar(ctx: Pick<AppContext, 'db' | 'dbh' | 'services'>, previous: string, now: string | undefined): Promise<void> {
  if (previous === now || avatarFiles(previous).length === 0) return;
  await ctx.dbh.durable(async () => {
    if ((await avatarsInUse(ctx.db, [previous])).size === 0) await ctx.services.avatars.remove([previous]);
  });
}

/** GET /files/avatar/<name>: a stored avatar or its thumbnail; anything else 404. */
export function registerAvatarRoutes(app: FastifyInstance, avatars: AccountAvatars): void {
  registerImageRoute(app, AVATAR_ROUTE, avatars);
}
