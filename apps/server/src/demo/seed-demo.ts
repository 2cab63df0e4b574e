import { ACCOUNT_STATUS, PERMISSION_TREE, ROLE, type Role } from '@sunwatch/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { seedTelemetry } from './seed-telemetry.js';
import { seedDemoAcceleration } from './seed-acceleration.js';
import { seedDemoAlarms } from './seed-alarms.js';
import { seedDistribution } from './seed-distribution.js';
import { seedDemoFirmware } from './seed-firmware.js';
import { seedDemoCheckoutCards, seedDemoRechargeOrders } from './seed-recharge.js';
import { seedDemoFlowCards } from './seed-flow-cards.js';

export interface DemoAccount {
  usr: string;
  password: string;
  role: Role;
  parent: string | null;
  vendorCode?: string;
  dealerCode?: string;
  /** Role-2 sub-administrator: whose subtree it acts on, and its granted modules. */
  adminOf?: string;
  modules?: string[];
  /** Group account members. */
  members?: string[];
  /** Created disabled (account management demo). */
  disabled?: boolean;
  mobile?: string;
  email?: string;
}

/** The demo tenant tree of docs/contracts.md. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { usr: 'operator', password: 'Operator_2026', role: ROLE.OPERATOR, parent: null },
  { usr: 'sunmaker', password: 'Maker_2026', role: ROLE.MANUFACTURER, parent: 'operator', vendorCode: 'SW' },
  { usr: 'dealer_north', password: 'Dealer_2026', role: ROLE.DISTRIBUTOR, parent: 'sunmaker', dealerCode: 'NORTH' },
  { usr: 'dealer_south', password: 'Dealer_2026', role: ROLE.DISTRIBUTOR, parent: 'sunmaker', dealerCode: 'SOUTH' },
  {
    usr: 'north_ops',
    password: 'SubAdmin_2026',
    role: ROLE.DISTRIBUTOR,
    parent: 'dealer_north',
    adminOf: 'dealer_north',
    modules: ['device_manag', 'alarm_manag'],
  },
  { usr: 'owner_anna', password: 'Owner_2026', role: ROLE.OWNER, parent: 'dealer_north' },
  { usr: 'owner_ben', password: 'Owner_2026', role: ROLE.OWNER, parent: 'dealer_south' },
  { usr: 'viewer_cara', password: 'Viewer_2026', role: ROLE.VIEWER, parent: 'owner_anna' },
  // More owners of dealer_north for the account management screens (issue 9): one with contact
  // data, one disabled, one in group_east's group.
  { usr: 'owner_dora', password: 'Owner_2026', role: ROLE.OWNER, parent: 'dealer_north', mobile: '13800138001', email: 'dora@example.com' },
  { usr: 'owner_emil', password: 'Owner_2026', role: ROLE.OWNER, parent: 'dealer_north', disabled: true },
  { usr: 'owner_fay', password: 'Owner_2026', role: ROLE.OWNER, parent: 'dealer_north' },
  {
    usr: 'group_east',
    password: 'Group_2026',
    role: ROLE.GROUP,
    parent: 'sunmaker',
    members: ['dealer_north', 'owner_anna', 'owner_fay'],
  },
];

/** Every permission name inside the given modules (module, its pages, its buttons). */
export function moduleGrant(modules: readonly string[]): string[] {
  return PERMISSION_TREE.filter((m) => modules.includes(m.action)).flatMap((m) => [
    m.action,
    ...m.first.flatMap((f) => [f.action, ...(f.second ?? [])]),
    ...m.buttons,
  ]);
}

/** Creates the demo tree where missing (idempotent). Returns how many accounts were created. */
export async function seedDemo(app: FastifyInstance | { ctx: AppContext }): Promise<number> {
  const { repos, services } = app.ctx;
  const ids = new Map<string, number>();
  let created = 0;
  for (const a of DEMO_ACCOUNTS) {
    const existing = await repos.accounts.findByUsr(a.usr);
    if (existing) {
      ids.set(a.usr, existing.id);
      continue;
    }
    const parentId = a.parent ? ids.get(a.parent) : null;
    const row = await services.accounts.create({
      usr: a.usr,
      password: a.password,
      role: a.role,
      parentId,
      qname: a.usr,
      vendorCode: a.vendorCode ?? null,
      dealerCode: a.dealerCode ?? null,
      permissions: a.modules ? moduleGrant(a.modules) : null,
      adminOf: a.adminOf ? ids.get(a.adminOf) : null,
      createdBy: parentId ?? null,
      mobile: a.mobile,
      email: a.email,
      status: a.disabled ? ACCOUNT_STATUS.DISABLED : undefined,
    });
    ids.set(a.usr, row.id);
    created += 1;
  }
  for (const a of DEMO_ACCOUNTS) {
    for (const m of a.members ?? []) await repos.accounts.addGroupMember(ids.get(a.usr)!, ids.get(m)!);
  }
  // Plants, dataloggers (with device tokens) and devices of owner_anna and owner_ben.
  await seedTelemetry(app);
  // The distribution stock and order of the demo platform (DEMO_DATA); integration tests seed it themselves.
  if (app.ctx.config.seedDemo) await seedDistribution(app);
  if (app.ctx.config.seedDemo) await seedDemoAlarms(app); // issue 11: a past alarm history
  if (app.ctx.config.seedDemo) await seedDemoFirmware(app); // issue 13: demo signing key and firmwares
  if (app.ctx.config.seedDemo) await seedDemoFlowCards(app); // issue 15: flow cards in every status
  if (app.ctx.config.seedDemo) await seedDemoRechargeOrders(app); // issue 14: recharge orders in every state
  if (app.ctx.config.seedDemo) await seedDemoCheckoutCards(app); // issue 15: a valid demo recharge batch
  if (app.ctx.config.seedDemo) await seedDemoAcceleration(app); // issue 15: one Wi-Fi datalogger to accelerate
  return created;
}
