import crypto from 'node:crypto';
import { ApiError, ROLE, type AuthDat } from '@sunwatch/protocol';
import type { StartUpgradeRequest, StartUpgradeResult, UpgradeEngine } from '../../src/modules/upgrades/engine-port.js';
import { StrategyRollout, type StrategyRolloutDeps } from '../../src/modules/upgrade-strategies/strategy-rollout.js';
import { FIXED_NOW, startTestServer, type Engine, type TestServer } from '../harness.js';
import { idOf, makeAccount, prepare } from '../distribution/helpers.js';

/**
 * Set-up shared by the strategy tests (strategies.test.ts, filter.test.ts): a server at FIXED_NOW
 * with the demo tenants and a second manufacturer, firmware rows, and the engine port's test
 * implementation that the rollout drives.
 */

export const HOUR = 3_600_000;
/** The strategies' zone in these tests: UTC+8. */
export const TZ = 8 * 3600;

/**
 * The engine port, for tests: a running `upgrade_tasks` row per start (the contract's allowance for
 * unit-level state-machine tests); the test sets outcomes. `refuse` answers 352, a PN in `offline`
 * answers ret 2.
 */
export class TestEngine implements UpgradeEngine {
  offline = new Set<string>();
  refuse = false;
  starts: StartUpgradeRequest[] = [];
  constructor(private readonly s: () => TestServer) {}
  async start(req: StartUpgradeRequest): Promise<StartUpgradeResult> {
    if (this.refuse) throw new ApiError(352);
    if (this.offline.has(req.target.pn)) return { ret: 2 };
    this.starts.push(req);
    const key = crypto.randomBytes(12).toString('hex');
    const now = this.s().ctx.now();
    await this.s()
      .ctx.db.insertInto('upgrade_tasks')
      .values({
        key,
        pn: req.target.pn,
        target: req.target.target,
        devcode: req.target.target === 1 ? req.target.devcode : null,
        devaddr: req.target.target === 1 ? req.target.devaddr : null,
        sn: req.target.target === 1 ? req.target.sn : null,
        firmware_id: req.firmwareId,
        strategy_id: req.strategyId ?? null,
        account_id: req.by.accountId,
        usr: req.by.usr,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { ret: 0, key };
  }
  cancel(): Promise<boolean> {
    return Promise.resolve(false);
  }
}

/** A firmware row of `vendor` (no stored image: the test engine sends nothing); its code. */
export async function insertFirmware(
  s: TestServer,
  o: { vendor: number; code: string; type: number; version: string },
): Promise<string> {
  await s.ctx.db
    .insertInto('firmwares')
    .values({
      code: o.code,
      vendor_id: o.vendor,
      name: `fw-${o.code.slice(-4)}`,
      version: o.version,
      type: o.type,
      baud_rate: 9600,
      file_name: 'fw.bin',
      size: 1024,
      sha256: '0'.repeat(64),
      blob_key: `test/${o.code}`,
      created_at: s.ctx.now(),
    })
    .execute();
  return o.code;
}

/**
 * A server at FIXED_NOW with the demo tenants signed in (`prepare`) and a second manufacturer,
 * `othermaker` (vendor code OM), signed in too.
 */
export async function startStrategyServer(
  engine: Engine,
): Promise<{ s: TestServer; sessions: Map<string, AuthDat>; maker: number; other: number }> {
  const s = await startTestServer(engine, { now: FIXED_NOW });
  const sessions = await prepare(s);
  const maker = await idOf(s, 'sunmaker');
  const other = await makeAccount(s, 'othermaker', ROLE.MANUFACTURER, 'operator', { vendorCode: 'OM' });
  sessions.set('othermaker', (await s.login('othermaker', 'Secret_2026')).dat!);
  return { s, sessions, maker, other };
}

/** The rollout job over the server's services and `engine`. */
export function rolloutOf(
  s: TestServer,
  engine: UpgradeEngine,
  o: Pick<StrategyRolloutDeps, 'resolvePageSize' | 'resolvePagesPerPass'> = {},
): StrategyRollout {
  return new StrategyRollout({
    db: s.ctx.db,
    dbh: s.ctx.dbh,
    audit: s.ctx.services.audit,
    now: s.ctx.now,
    log: s.ctx.log,
    engine,
    access: s.ctx.services.access,
    ...o,
  });
}
