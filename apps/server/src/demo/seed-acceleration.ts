import type { AppContext } from '../context.js';

/** The demo datalogger made a Wi-Fi module (owner_ben's second rooftop, no flow card). */
export const DEMO_WIFI_PN = 'SWSOUTH0000002';

/**
 * Issue 15 demo (DEMO_DATA only): the demo dataloggers are all cellular (4G), and acceleration is
 * sold for Wi-Fi module dataloggers only (spec §9), so one of them, without a flow card, reports as
 * Wi-Fi: owner_ben, dealer_south, sunmaker and the operator can try the purchase page on it.
 * Idempotent; it changes nothing once the datalogger's method is not the seeded `4G` any more.
 */
export async function seedDemoAcceleration(app: { ctx: AppContext }): Promise<number> {
  const r = await app.ctx.db
    .updateTable('dataloggers')
    .set({ comm_method: 'Wi-Fi' })
    .where('pn', '=', DEMO_WIFI_PN)
    .where('comm_method', '=', '4G')
    .where('ccid', '=', '')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
