import { ROLE, signCall, type AuthDat, type DistributeDat, type Envelope, type Role } from '@sunwatch/protocol';
import { seedDistribution } from '../../src/demo/seed-distribution.js';
import { DistributionRepository } from '../../src/modules/distribution/distribution.repository.js';
import type { TestServer } from '../harness.js';

export const DEMO_PASSWORDS: Record<string, string> = {
  operator: 'Operator_2026',
  sunmaker: 'Maker_2026',
  dealer_north: 'Dealer_2026',
  dealer_south: 'Dealer_2026',
  north_ops: 'SubAdmin_2026',
  group_east: 'Group_2026',
  owner_anna: 'Owner_2026',
  owner_ben: 'Owner_2026',
  viewer_cara: 'Viewer_2026',
};

/** Seeds the demo distribution stock and order, signs every demo account in. */
export async function prepare(s: TestServer): Promise<Map<string, AuthDat>> {
  await seedDistribution({ ctx: s.ctx });
  const sessions = new Map<string, AuthDat>();
  for (const [usr, pwd] of Object.entries(DEMO_PASSWORDS)) {
    const res = await s.login(usr, pwd);
    if (res.err !== 0) throw new Error(`login ${usr}: ${res.err}`);
    sessions.set(usr, res.dat!);
  }
  return sessions;
}

export async function idOf(s: TestServer, usr: string): Promise<number> {
  const row = await s.ctx.repos.accounts.findByUsr(usr);
  if (!row) throw new Error(`no account ${usr}`);
  return row.id;
}

/** An account created directly (the account-management actions are another branch's). */
export async function makeAccount(
  s: TestServer,
  usr: string,
  role: Role,
  parent: string,
  opts: { createdBy?: string; password?: string; vendorCode?: string } = {},
): Promise<number> {
  const parentId = await idOf(s, parent);
  const row = await s.ctx.services.accounts.create({
    usr,
    password: opts.password ?? 'Secret_2026',
    role,
    parentId,
    createdBy: opts.createdBy ? await idOf(s, opts.createdBy) : parentId,
    vendorCode: opts.vendorCode ?? null,
  });
  return row.id;
}

export function repo(s: TestServer): DistributionRepository {
  return new DistributionRepository(s.ctx.db, s.ctx.now);
}

export async function datalogger(s: TestServer, pn: string) {
  return s.ctx.db.selectFrom('dataloggers').selectAll().where('pn', '=', pn).executeTakeFirst();
}

let saltSeq = 0;
/** A signed multipart upload of one sheet to distributeCollectorBySheet. */
export async function uploadSheet(
  s: TestServer,
  session: { token: string; secret: string },
  uid: number,
  bytes: Uint8Array,
  filename: string,
  lang = 'en_US',
): Promise<Envelope<DistributeDat>> {
  saltSeq += 1;
  const salt = String(s.clock.now() + 1_000_000 + saltSeq);
  const tail = `&action=distributeCollectorBySheet&uid=${uid}&i18n=${lang}`;
  const q = `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
  const fd = new FormData();
  fd.set('file', new Blob([Buffer.from(bytes)]), filename);
  return (await s.request<Envelope<DistributeDat>>(q, { method: 'POST', body: fd })).body;
}

export { ROLE };
