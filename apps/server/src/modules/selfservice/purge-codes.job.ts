import type { AppContext } from '../../context.js';
import { CodeRepository } from './code.repository.js';

/** How often old verification codes are purged (a job of the ingest runner, one instance per interval). */
export const PURGE_CODES_EVERY_MS = 3600_000;
/** Codes are kept this long after they were created (used or expired: none lives longer than 5 minutes). */
export const CODE_RETENTION_MS = 24 * 3600_000;

/**
 * Deletes verification and picture codes older than a day (used or expired long before).
 * The send limits (524) look back one hour, so nothing they count is removed.
 */
export function purgeVerificationCodes(ctx: Pick<AppContext, 'db' | 'now'>): Promise<{ codes: number; pictures: number }> {
  return new CodeRepository(ctx.db).purgeBefore(ctx.now() - CODE_RETENTION_MS);
}
