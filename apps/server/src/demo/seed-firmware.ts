import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { demoFirmwareSigningKey, signFirmwareDigest } from '@sunwatch/protocol/node/firmware-keys.ts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** Deterministic image bytes (a small LCG): the same demo images on every platform. */
function demoImage(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 1) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

/** The demo firmwares of sunmaker: signed ones per datalogger type (one the default) and one unsigned. */
const DEMO_FIRMWARES = [
  { name: 'SW-DL4G main', version: '2.1.0', type: 0, size: 160 * 1024, seed: 21, signed: true, defaultFor: 'SW-DL4G', file: 'sw-dl4g-2.1.0.bin', desc: 'Datalogger firmware: faster reconnect, resumable uploads' },
  { name: 'SW-DL1 main', version: '1.4.2', type: 0, size: 96 * 1024, seed: 14, signed: true, defaultFor: '', file: 'sw-dl1-1.4.2.bin', desc: 'Datalogger firmware for the Wi-Fi stick' },
  { name: 'Inverter control board', version: '5.0.3', type: 2, size: 128 * 1024, seed: 53, signed: true, defaultFor: '', file: 'inv-ctrl-5.0.3.hex', desc: 'Control board 1 of the string inverters', baud: 9600 },
  { name: 'BMS test build', version: '0.9.0-rc1', type: 4, size: 64 * 1024, seed: 9, signed: false, defaultFor: '', file: 'bms-0.9.0-rc1.bin', desc: 'Unsigned test build: stored, never distributed' },
] as const;

/**
 * Issue 13 demo data (idempotent): the demo manufacturer `sunmaker` registers the demo signing
 * key (`demoFirmwareSigningKey()`, DEMO ONLY) and gets three signed firmwares (one the default of
 * its SW-DL4G dataloggers) and one unsigned, so the firmware pages have content.
 */
export async function seedDemoFirmware(app: FastifyInstance | { ctx: AppContext }): Promise<number> {
  const { ctx } = app;
  const maker = await ctx.repos.accounts.findByUsr('sunmaker');
  if (!maker) return 0;
  const key = demoFirmwareSigningKey();
  const now = ctx.now();
  let keyRow = await ctx.db.selectFrom('firmware_signing_keys').select('id').where('fingerprint', '=', key.fingerprint).executeTakeFirst();
  if (!keyRow) {
    keyRow = await ctx.db
      .insertInto('firmware_signing_keys')
      .values({ vendor_id: maker.id, name: 'Demo signing key (demo only)', public_key: key.publicKey, fingerprint: key.fingerprint, created_by: maker.id, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  let created = 0;
  for (const f of DEMO_FIRMWARES) {
    const exists = await ctx.db
      .selectFrom('firmwares')
      .select('id')
      .where('vendor_id', '=', maker.id)
      .where('name', '=', f.name)
      .where('version', '=', f.version)
      .executeTakeFirst();
    if (exists) continue;
    const blob = await ctx.blobs.put(Readable.from([demoImage(f.size, f.seed)]));
    const row = await ctx.db
      .insertInto('firmwares')
      .values({
        code: randomBytes(8).toString('hex'),
        vendor_id: maker.id,
        name: f.name,
        version: f.version,
        description: f.desc,
        type: f.type,
        baud_rate: 'baud' in f ? f.baud : null,
        file_name: f.file,
        size: blob.size,
        sha256: blob.sha256,
        signature: f.signed ? signFirmwareDigest(key.privateKey, blob.sha256) : '',
        key_id: f.signed ? Number(keyRow.id) : null,
        blob_key: blob.key,
        created_by: maker.id,
        created_at: now - created * 86_400_000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (f.defaultFor) {
      await ctx.db
        .insertInto('default_firmwares')
        .values({ vendor_id: maker.id, datalogger_type: f.defaultFor, firmware_id: Number(row.id), updated_by: maker.id, updated_at: now })
        .onConflict((oc) => oc.columns(['vendor_id', 'datalogger_type']).doNothing())
        .execute();
    }
    created += 1;
  }
  return created;
}
