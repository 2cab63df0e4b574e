import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';

/** One stored setting. */
export interface PlatformSetting {
  value: unknown;
  updatedAt: number;
  updatedBy: string | null;
}

/**
 * The platform's key/value settings (issue 14, migration 0032 `platform_settings`): JSON values
 * set by the operator. Read on use (no process-local copy), so a change holds at once on every
 * server sharing the database. Joins the caller's transaction (`currentDb`).
 */
export class PlatformSettingsRepository {
  constructor(private readonly root: Db) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async getMany(keys: readonly string[]): Promise<Map<string, PlatformSetting>> {
    const out = new Map<string, PlatformSetting>();
    if (keys.length === 0) return out;
    const rows = await this.db
      .selectFrom('platform_settings')
      .selectAll()
      .where('key', 'in', [...keys])
      .execute();
    for (const r of rows) {
      let value: unknown;
      try {
        value = JSON.parse(r.value) as unknown;
      } catch {
        continue; // an unreadable value counts as unset
      }
      out.set(r.key, { value, updatedAt: Number(r.updated_at), updatedBy: r.updated_by });
    }
    return out;
  }

  async set(key: string, value: unknown, at: number, by: string | null): Promise<void> {
    const json = JSON.stringify(value);
    await this.db
      .insertInto('platform_settings')
      .values({ key, value: json, updated_at: at, updated_by: by })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: at, updated_by: by }))
      .execute();
  }
}
