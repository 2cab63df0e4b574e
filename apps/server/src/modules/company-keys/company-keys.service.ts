import type { Db } from '../../db/db.js';
import { currentDb } from '../../db/transaction.js';

/** Company keys (brand identifiers sent at sign-in; not secrets). Seeded from config. */
export class CompanyKeysService {
  constructor(
    private readonly root: Db,
    private readonly now: () => number,
  ) {}

  private get db(): Db {
    return currentDb(this.root);
  }

  async seed(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      await this.db
        .insertInto('company_keys')
        .values({ key, name: '', vendor_code: null, enabled: 1, created_at: this.now() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    }
  }

  async isValid(key: string): Promise<boolean> {
    const row = await this.db.selectFrom('company_keys').select('enabled').where('key', '=', key).executeTakeFirst();
    return row?.enabled === 1;
  }
}
