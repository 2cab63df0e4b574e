import type { AppContext } from '../context.js';
import { PlantAdminRepository } from '../modules/plants/plant-admin.repository.js';
import { UNATTACHED_PICTURE_TTL_MS } from '../modules/plants/plant-images.js';

/** How often the plant picture sweep runs. */
export const CLEAN_PLANT_PICTURES_MS = 3600_000;

/**
 * Removes plant pictures no plant shows that are older than a day (UNATTACHED_PICTURE_TTL_MS):
 * uploads never attached to a plant (a form abandoned after the upload), and replaced pictures
 * or pictures of deleted plants whose immediate removal failed or was missed (a plant deleted
 * with its owner's account). A fresh upload is kept: its form may still be open. Returns the
 * file names removed.
 */
export async function cleanPlantPictures(ctx: Pick<AppContext, 'db' | 'now' | 'services'>): Promise<string[]> {
  const inUse = await new PlantAdminRepository(ctx.db).allPictures();
  return ctx.services.plantImages.sweep(inUse, ctx.now() - UNATTACHED_PICTURE_TTL_MS);
}
