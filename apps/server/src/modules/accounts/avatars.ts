import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiError, AVATAR_ROUTE, AVATAR_URL, FILE_LIMITS, type AvatarDat } from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import type { UploadedFile } from '../../http/registry.js';
import { decodeImage, encodeImage, fit } from '../../shared/images.js';

/**
 * Avatars (issue 12, personal settings): stored like plant pictures (plant-images.ts, whose
 * decoder and scaler this reuses). A jpg/png of at most 8 MB (spec §5 images) is checked by its
 * bytes (not its name or type), decoded, re-encoded (metadata such as a phone photo's GPS
 * position dropped), scaled to at most 1024 px and stored with a 128 × 128 thumbnail in
 * `<DATA_DIR>/avatars/`, outside the database, under 128 random bits served at
 * `/files/avatar/<name>` (the URL is the capability, never listed).
 */
export const AVATAR_MAX_SIDE = 1024;
export const AVATAR_THUMB_SIDE = 128;
const NAME = /^[0-9a-f]{32}(?:-s)?\.(?:jpg|png)$/;

export class AccountAvatars {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'avatars');
  }

  async store(file: UploadedFile | undefined): Promise<AvatarDat> {
    if (!file) throw new ApiError(7, 'file');
    if (file.size > FILE_LIMITS.IMAGE_BYTES) throw new ApiError(13, 'file');
    const bytes = new Uint8Array(await fs.promises.readFile(file.path));
    const { kind, image } = decodeImage(bytes);
    const big = fit(image, AVATAR_MAX_SIDE, AVATAR_MAX_SIDE);
    const thumb = fit(image, AVATAR_THUMB_SIDE, AVATAR_THUMB_SIDE);
    const id = crypto.randomBytes(16).toString('hex');
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fs.promises.writeFile(path.join(this.dir, `${id}.${kind}`), encodeImage(kind, big), { mode: 0o600 });
    await fs.promises.writeFile(path.join(this.dir, `${id}-s.${kind}`), encodeImage(kind, thumb), { mode: 0o600 });
    return { photo: `${AVATAR_ROUTE}/${id}.${kind}`, thumb: `${AVATAR_ROUTE}/${id}-s.${kind}`, width: big.width, height: big.height };
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

  /** Whether `url` names an avatar stored here (editAccount accepts no other local photo path). */
  async exists(url: string): Promise<boolean> {
    if (!AVATAR_URL.test(url)) return false;
    return (await this.read(url.slice(AVATAR_ROUTE.length + 1))) !== undefined;
  }
}

/** GET /files/avatar/<name>: a stored avatar or its thumbnail; anything else 404. */
export function registerAvatarRoutes(app: FastifyInstance, avatars: AccountAvatars): void {
  app.get<{ Params: { name: string } }>(`${AVATAR_ROUTE}/:name`, async (request, reply) => {
    const file = await avatars.read(request.params.name);
    if (!file) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type(file.type)
      .header('Cache-Control', 'private, max-age=86400, immutable')
      .header('X-Content-Type-Options', 'nosniff')
      .send(file.bytes);
  });
}
