import { createHash } from 'node:crypto';
import type { NetworkType, RechargeArea } from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { refreshCardStatuses } from '../jobs/refresh-card-status.job.js';
import { cellularSql } from '../modules/dataloggers/flow-card-sql.js';
import { demoCcid } from './seed-recharge.js';

const DAY = 86_400_000;
const MB = 1024;

/** The area of the demo cards the demo recharge orders already name (seed-recharge.ts). */
const AREA_OF: Record<string, RechargeArea> = {
  SWNORTH0000001: 'international',
  SWSOUTH0000001: 'international',
  SWNORTH0000201: 'mainland',
  SWNORTH0000202: 'mainland',
  SWMAKER0000001: 'mainland',
  SWMAKER0000002: 'mainland',
};

const CARRIERS: Record<RechargeArea, readonly { name: string; mcc: string }[]> = {
  mainland: [
    { name: 'China Mobile', mcc: '46000' },
    { name: 'China Unicom', mcc: '46001' },
    { name: 'China Telecom', mcc: '46011' },
  ],
  international: [
    { name: 'Vodafone', mcc: '26202' },
    { name: 'Deutsche Telekom', mcc: '26201' },
    { name: '1NCE', mcc: '90140' },
  ],
};

const PACKAGES = [
  { name: '30 MB / month', limitKb: 30 * MB },
  { name: '100 MB / month', limitKb: 100 * MB },
  { name: '500 MB / year', limitKb: 500 * MB },
] as const;

/**
 * One profile per status, cycled over the demo cards in PN order so every status shows up:
 * expiry relative to now (days; null = unknown), the share of the package used, the network.
 */
const PROFILES: ReadonlyArray<{ expireDays: number | null; usedPct: number; network: NetworkType }> = [
  { expireDays: 210, usedPct: 34, network: '4G' }, // normal
  { expireDays: 12, usedPct: 41, network: '4G' }, // warning: expiring soon
  { expireDays: 160, usedPct: 91, network: '2G' }, // warning: 91 % used, a 2G datalogger
  { expireDays: -20, usedPct: 100, network: '4G' }, // overdue: suspended within the grace
  { expireDays: -140, usedPct: 100, network: '2G' }, // expired: cancelled, 2G
  { expireDays: null, usedPct: 0, network: 'NB-IoT' }, // unknown: no expiry known yet
  { expireDays: 320, usedPct: 12, network: 'LTE-M' }, // normal
  { expireDays: 95, usedPct: 63, network: '4G' }, // normal
];

const pick = (pn: string, salt: string, n: number) =>
  parseInt(
    createHash('sha256')
      .update(salt + pn)
      .digest('hex')
      .slice(0, 8),
    16,
  ) % n;

/**
 * Issue 15: realistic flow cards on the demo's cellular dataloggers (DEMO_DATA only; tests set
 * their cards themselves): CCID, IMSI, carrier, package, usage, network (some 2G), type, area,
 * activation and expiries spread over every status; then the card-status job runs once.
 * Idempotent: a card that already has a carrier is left alone. Returns how many it filled.
 */
export async function seedDemoFlowCards(app: FastifyInstance | { ctx: AppContext }): Promise<number> {
  const ctx = app.ctx;
  const { db } = ctx;
  const now = ctx.now();
  const rows = await db
    .selectFrom('dataloggers as dl')
    .select(['dl.id', 'dl.pn', 'dl.ccid', 'dl.card_carrier'])
    .where(cellularSql('dl'))
    .orderBy('dl.pn')
    .execute();
  let filled = 0;
  for (const [i, r] of rows.entries()) {
    if (r.card_carrier !== '') continue;
    const area: RechargeArea = AREA_OF[r.pn] ?? (pick(r.pn, 'area', 3) === 0 ? 'international' : 'mainland');
    const profile = PROFILES[i % PROFILES.length]!;
    const carrier = CARRIERS[area][pick(r.pn, 'carrier', CARRIERS[area].length)]!;
    const pkg = PACKAGES[pick(r.pn, 'package', PACKAGES.length)]!;
    const imsi =
      carrier.mcc +
      String(parseInt(createHash('sha256').update(r.pn).digest('hex').slice(0, 12), 16))
        .padStart(10, '0')
        .slice(-10);
    const expireAt = profile.expireDays === null ? null : now + profile.expireDays * DAY;
    await db
      .updateTable('dataloggers')
      .set({
        ccid: r.ccid !== '' ? r.ccid : demoCcid(r.pn, area),
        imsi,
        card_carrier: carrier.name,
        card_package: pkg.name,
        card_limit_kb: pkg.limitKb,
        card_used_kb: Math.round((pkg.limitKb * profile.usedPct) / 100),
        card_network: profile.network,
        card_type: pick(r.pn, 'type', 4) === 0 ? 'embedded' : 'standard',
        card_area: area,
        card_expire_at: expireAt,
        card_activated_at: expireAt === null ? null : expireAt - 365 * DAY,
        gprs_traffic: Math.round((pkg.limitKb * profile.usedPct) / 100 / MB),
      })
      .where('id', '=', r.id)
      .execute();
    filled += 1;
  }
  await refreshCardStatuses(ctx);
  return filled;
}
