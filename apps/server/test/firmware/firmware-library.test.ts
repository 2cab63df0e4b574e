import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  ROLE,
  UPG_ACTION_PREFIX,
  UPG_BLOB_PREFIX,
  UPG_UPLOAD_PATH,
  encodePairs,
  signCall,
  upgSign,
  type AuthDat,
  type DefaultFirmwareRow,
  type Envelope,
  type FirmwareKeyRow,
  type FirmwareRow,
} from '@sunwatch/protocol';
import {
  demoFirmwareSigningKey,
  rawPublicKeyBase64,
  signFirmwareDigest,
} from '@sunwatch/protocol/node/firmware-keys.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { idOf, makeAccount, prepare } from '../distribution/helpers.js';

type UploadDat = { firmware: string; sha256: string; size: number; signed: boolean; keyFingerprint: string };

/** Deterministic image bytes. */
function image(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let saltSeq = 0;
async function upload(
  s: TestServer,
  session: AuthDat,
  bytes: Buffer,
  filename: string,
  params: Record<string, string | number>,
): Promise<Envelope<UploadDat>> {
  saltSeq += 1;
  const salt = String(s.clock.now() + 3_000_000 + saltSeq);
  const tail = `&action=uploadFirmware${encodePairs(params)}`;
  const q = `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
  const fd = new FormData();
  fd.set('file', new Blob([new Uint8Array(bytes)]), filename);
  return (await s.request<Envelope<UploadDat>>(q, { method: 'POST', body: fd })).body;
}

describe.each(engines)('firmware library ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  const as = (usr: string) => sessions.get(usr)!;
  const demoKey = demoFirmwareSigningKey();
  const other = generateKeyPairSync('ed25519');
  const img = image(150 * 1024, 7);
  let signedCode = '';

  beforeAll(async () => {
    s = await startTestServer(engine);
    sessions = await prepare(s);
    // A second manufacturer with its own distributor: the tenant the first one must never see.
    await makeAccount(s, 'maker_two', ROLE.MANUFACTURER, 'operator', { vendorCode: 'M2' });
    await makeAccount(s, 'dealer_two', ROLE.DISTRIBUTOR, 'maker_two');
    for (const usr of ['maker_two', 'dealer_two']) {
      const r = await s.login(usr, 'Secret_2026');
      sessions.set(usr, r.dat!);
    }
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('signing keys: raw base64 or PEM, fingerprint, duplicates 14, bad key 6, only the manufacturer', async () => {
    const add = await s.call<{ id: number; fingerprint: string }>(as('sunmaker'), 'addFirmwareKey', { name: 'demo', publicKey: demoKey.publicKey });
    expect(add.err).toBe(0);
    expect(add.dat!.fingerprint).toBe(demoKey.fingerprint);
    expect((await s.call(as('sunmaker'), 'addFirmwareKey', { publicKey: demoKey.publicKey })).err).toBe(14);
    const bad = await s.call(as('sunmaker'), 'addFirmwareKey', { publicKey: 'AAAA' }, {});
    expect(bad.err).toBe(6);
    expect(bad.msg).toMatch(/Ed25519/);
    const pem = other.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const two = await s.call<{ id: number; fingerprint: string }>(as('maker_two'), 'addFirmwareKey', { name: 'two', publicKey: pem });
    expect(two.err).toBe(0);
    const keys = await s.call<{ keys: FirmwareKeyRow[] }>(as('maker_two'), 'queryFirmwareKeys');
    expect(keys.dat!.keys.map((k) => k.publicKey)).toEqual([rawPublicKeyBase64(other.publicKey)]);
    expect((await s.call(as('dealer_north'), 'addFirmwareKey', { publicKey: demoKey.publicKey })).err).toBe(11);
    expect((await s.call(as('owner_anna'), 'queryFirmwareKeys')).err).toBe(11);
    // another manufacturer's key id answers 12 like a missing one
    expect((await s.call(as('sunmaker'), 'revokeFirmwareKey', { id: two.dat!.id })).err).toBe(12);
  });

  it('uploads: a good signature is recorded with its key; unsigned is marked; a bad one is refused and leaves nothing', async () => {
    const blobs = path.join(s.dataDir, 'blobs');
    const signature = signFirmwareDigest(demoKey.privateKey, sha(img));
    const ok = await upload(s, as('sunmaker'), img, 'dl4g-2.1.0.bin', {
      firmwareName: 'DL4G main',
      firmwareVersion: '2.1.0',
      type: 0,
      desc: 'fixes reconnect',
      signature,
      i18n: JSON.stringify({ en_US: 'Fixes reconnect', zh_CN: '修复重连' }),
    });
    expect(ok.err).toBe(0);
    expect(ok.dat).toMatchObject({ sha256: sha(img), size: img.length, signed: true, keyFingerprint: demoKey.fingerprint });
    signedCode = ok.dat!.firmware;

    const unsigned = await upload(s, as('sunmaker'), image(1000, 2), 'bms.hex', { firmwareName: 'BMS', firmwareVersion: '1.0', type: 4, baudRate: 9600 });
    expect(unsigned.dat).toMatchObject({ signed: false, keyFingerprint: '' });

    const countFiles = () => (fs.existsSync(blobs) ? fs.readdirSync(blobs, { recursive: true }).filter((f) => String(f).length > 10).length : 0);
    const before = countFiles();
    const forged = signFirmwareDigest(other.privateKey, sha(img)); // maker_two's key, not sunmaker's
    const bad = await upload(s, as('sunmaker'), img, 'x.bin', { firmwareName: 'X', firmwareVersion: '1', signature: forged });
    expect(bad.err).toBe(6);
    expect(bad.msg).toMatch(/signature/i);
    const garbage = await upload(s, as('sunmaker'), img, 'x.bin', { firmwareName: 'X', firmwareVersion: '1', signature: 'abc' });
    expect(garbage.err).toBe(6);
    expect(countFiles()).toBe(before);

    const list = await s.call<{ total: number; firmware: FirmwareRow[] }>(as('sunmaker'), 'queryFirmwares', { search: 'x' });
    expect(list.dat!.firmware.map((f) => f.name)).not.toContain('X');
  });

  it('validation: missing name/version 7, bad extension 6, 1 MB in upgrade management 13, 8 MB in the manager', async () => {
    const small = image(2048, 3);
    expect((await upload(s, as('sunmaker'), small, 'a.bin', { firmwareVersion: '1' })).err).toBe(7);
    expect((await upload(s, as('sunmaker'), small, 'a.bin', { firmwareName: 'A' })).err).toBe(7);
    expect((await upload(s, as('sunmaker'), small, 'a.exe', { firmwareName: 'A', firmwareVersion: '1' })).err).toBe(6);
    const big = image(1024 * 1024 + 1, 4);
    expect((await upload(s, as('sunmaker'), big, 'big.bin', { firmwareName: 'Big', firmwareVersion: '1', origin: 1 })).err).toBe(13);
    const manager = await upload(s, as('sunmaker'), big, 'big.s19', { firmwareName: 'Big', firmwareVersion: '1', origin: 0 });
    expect(manager.err).toBe(0);
    expect((await upload(s, as('sunmaker'), image(8 * 1024 * 1024 + 1, 5), 'huge.bin', { firmwareName: 'H', firmwareVersion: '1' })).err).toBe(13);
    // distributors, owners and other roles never upload
    expect((await upload(s, as('dealer_north'), small, 'a.bin', { firmwareName: 'A', firmwareVersion: '1' })).err).toBe(11);
    expect((await upload(s, as('owner_anna'), small, 'a.bin', { firmwareName: 'A', firmwareVersion: '1' })).err).toBe(11);
  });

  it('ownership: distributors see their manufacturer\'s, the operator all, another manufacturer\'s id is 352', async () => {
    const two = await upload(s, as('maker_two'), image(4096, 9), 'two.bin', { firmwareName: 'Two', firmwareVersion: '9.9', signature: signFirmwareDigest(other.privateKey, sha(image(4096, 9))) });
    expect(two.dat!.signed).toBe(true);
    const names = async (usr: string) =>
      (await s.call<{ firmware: FirmwareRow[] }>(as(usr), 'queryFirmwares', { pagesize: 100 })).dat!.firmware.map((f) => f.name);
    expect(await names('sunmaker')).not.toContain('Two');
    expect(await names('dealer_north')).toContain('DL4G main');
    expect(await names('dealer_north')).not.toContain('Two');
    expect(await names('dealer_two')).toEqual(['Two']);
    expect(await names('operator')).toEqual(expect.arrayContaining(['Two', 'DL4G main']));
    expect((await s.call(as('owner_anna'), 'queryFirmwares')).err).toBe(11);
    const code2 = two.dat!.firmware;
    expect((await s.call(as('sunmaker'), 'delFirmware', { firmware: code2 })).err).toBe(352);
    expect((await s.call(as('sunmaker'), 'editFirmware', { firmware: code2, desc: 'mine' })).err).toBe(352);
    expect((await s.call(as('dealer_north'), 'downloadFirmware', { firmware: code2 })).err).toBe(352);
    expect((await s.call(as('sunmaker'), 'delFirmware', { firmware: 'ffffffffffffffff' })).err).toBe(352);
    expect((await s.call(as('dealer_two'), 'downloadFirmware', { firmware: code2 })).err).toBe(0);
  });

  it('paging and search run on the server', async () => {
    const p0 = await s.call<{ total: number; firmware: FirmwareRow[] }>(as('sunmaker'), 'queryFirmwares', { page: 0, pagesize: 2 });
    const p1 = await s.call<{ total: number; firmware: FirmwareRow[] }>(as('sunmaker'), 'queryFirmwares', { page: 1, pagesize: 2 });
    expect(p0.dat!.total).toBe(3);
    expect(p0.dat!.firmware).toHaveLength(2);
    expect(p1.dat!.firmware).toHaveLength(1);
    expect(new Set([...p0.dat!.firmware, ...p1.dat!.firmware].map((f) => f.firmware)).size).toBe(3);
    const bms = await s.call<{ total: number; firmware: FirmwareRow[] }>(as('sunmaker'), 'queryFirmwares', { type: 4 });
    expect(bms.dat!.firmware.map((f) => f.name)).toEqual(['BMS']);
    const search = await s.call<{ total: number; firmware: FirmwareRow[] }>(as('sunmaker'), 'queryFirmwares', { search: 'RECONNECT' });
    expect(search.dat!.firmware.map((f) => f.firmware)).toEqual([signedCode]);
    expect(search.dat!.firmware[0]).toMatchObject({ signed: true, keyFingerprint: demoKey.fingerprint, notes: { zh_CN: '修复重连' } });
  });

  it('download streams the exact bytes with their checksum; an altered address is 404', async () => {
    const d = await s.call<{ url: string; sha256: string; size: number }>(as('dealer_north'), 'downloadFirmware', { firmware: signedCode });
    expect(d.err).toBe(0);
    const res = await fetch(s.url + d.dat!.url);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(img)).toBe(true);
    expect(res.headers.get('x-checksum-sha256')).toBe(sha(img));
    expect((await fetch(s.url + d.dat!.url.replace(/sig=./, 'sig=0'))).status).toBe(404);
  });

  it('default firmware per datalogger type; delete refused while default or used by a live strategy', async () => {
    const set = await s.call(as('sunmaker'), 'setDefaultFirmware', { dataloggerType: 'SW-DL4G', firmware: signedCode });
    expect(set.err).toBe(0);
    const defs = await s.call<{ types: DefaultFirmwareRow[] }>(as('dealer_north'), 'queryDefaultFirmwares');
    const dl4g = defs.dat!.types.find((t) => t.dataloggerType === 'SW-DL4G');
    expect(dl4g?.firmware?.firmware).toBe(signedCode);
    const del = await s.call(as('sunmaker'), 'delFirmware', { firmware: signedCode });
    expect(del.err).toBe(8);
    expect(del.msg).toMatch(/default/i);
    expect((await s.call(as('sunmaker'), 'setDefaultFirmware', { dataloggerType: 'SW-DL4G', firmware: '' })).err).toBe(0);

    // a strategy in effect uses it
    const fw = await s.ctx.db.selectFrom('firmwares').select('id').where('code', '=', signedCode).executeTakeFirstOrThrow();
    const now = s.clock.now();
    const makerId = await idOf(s, 'sunmaker');
    await s.ctx.db
      .insertInto('upgrade_strategies')
      .values({
        code: 'ST-TEST-1',
        vendor_id: makerId,
        created_by: makerId,
        name: 'live',
        firmware_id: Number(fw.id),
        fw_type: 0,
        baud_rate: 9600,
        starts_at: now - 1000,
        ends_at: now + 3_600_000,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const inUse = await s.call(as('sunmaker'), 'delFirmware', { firmware: signedCode });
    expect(inUse.err).toBe(8);
    expect(inUse.msg).toMatch(/strategy/i);
    await s.ctx.db.updateTable('upgrade_strategies').set({ cancelled_at: now }).where('code', '=', 'ST-TEST-1').execute();
    expect((await s.call(as('sunmaker'), 'delFirmware', { firmware: signedCode })).err).toBe(0);
    expect((await s.call(as('sunmaker'), 'downloadFirmware', { firmware: signedCode })).err).toBe(352);
    const audit = await s.ctx.db.selectFrom('audit_log').select(['action', 'before', 'after']).where('entity', '=', 'firmware').execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['uploadFirmware', 'delFirmware']));
    expect(audit.some((a) => a.action === 'delFirmware' && a.after === null && (a.before ?? '').includes(signedCode))).toBe(true);
  });

  it('a revoked key verifies nothing new', async () => {
    const keys = await s.call<{ keys: FirmwareKeyRow[] }>(as('maker_two'), 'queryFirmwareKeys');
    const id = keys.dat!.keys[0]!.id;
    expect((await s.call(as('maker_two'), 'revokeFirmwareKey', { id })).err).toBe(0);
    expect((await s.call(as('maker_two'), 'revokeFirmwareKey', { id })).err).toBe(14);
    const b = image(3000, 11);
    const r = await upload(s, as('maker_two'), b, 'r.bin', { firmwareName: 'R', firmwareVersion: '1', signature: signFirmwareDigest(other.privateKey, sha(b)) });
    expect(r.err).toBe(6);
    const list = await s.call<{ firmware: FirmwareRow[] }>(as('maker_two'), 'queryFirmwares');
    expect(list.dat!.firmware.find((f) => f.name === 'Two')).toMatchObject({ signed: true, keyRevoked: true });
  });

  it('/upg/api: generic call, multipart upload and blob download with token/i18n/sign headers; a bad sign is 4', async () => {
    const sess = as('sunmaker');
    const t = () => String(s.clock.now() + (saltSeq += 1));
    const get = async (p: string, sign?: string) => {
      const res = await fetch(s.url + p, {
        headers: { token: sess.token, i18n: 'zh_CN', sign: sign ?? upgSign(sess.secret, sess.token, 'GET', p) },
      });
      return { res, json: (await res.clone().json().catch(() => undefined)) as Envelope<unknown> | undefined };
    };
    const path1 = `${UPG_ACTION_PREFIX}/queryFirmwares?t=${t()}&pagesize=50`;
    const good = await get(path1);
    expect(good.json!.err).toBe(0);
    expect((good.json!.dat as { total: number }).total).toBeGreaterThan(0);
    const path2 = `${UPG_ACTION_PREFIX}/queryFirmwares?t=${t()}&pagesize=50`;
    const bad = await get(path2, upgSign(sess.secret, sess.token, 'GET', path2.replace('50', '51')));
    expect(bad.json!.err).toBe(4);
    // the same signed request twice: a mutating call is refused the second time (5)
    const body = JSON.stringify({ publicKey: 'not-a-key' });
    const pp = `${UPG_ACTION_PREFIX}/addFirmwareKey?t=${t()}`;
    const post = () =>
      fetch(s.url + pp, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: sess.token, i18n: 'en_US', sign: upgSign(sess.secret, sess.token, 'POST', pp, body) },
        body,
      }).then((r) => r.json() as Promise<Envelope<unknown>>);
    expect((await post()).err).toBe(6);
    expect((await post()).err).toBe(5);
    // the same permission checks: a distributor may not upload
    const up = async (who: AuthDat) => {
      const p = `${UPG_UPLOAD_PATH}?t=${t()}&firmwareName=Upg&firmwareVersion=3.0`;
      const fd = new FormData();
      fd.set('file', new Blob([new Uint8Array(image(5000, 12))]), 'upg.bin');
      fd.set('desc', 'from the upgrade service');
      const res = await fetch(s.url + p, { method: 'POST', body: fd, headers: { token: who.token, i18n: 'en_US', sign: upgSign(who.secret, who.token, 'POST', p) } });
      return (await res.json()) as Envelope<UploadDat>;
    };
    expect((await up(as('dealer_north'))).err).toBe(11);
    const uploaded = await up(sess);
    expect(uploaded.err).toBe(0);
    const blobPath = `${UPG_BLOB_PREFIX}/${uploaded.dat!.firmware}?t=${t()}`;
    const blob = await get(blobPath);
    expect(blob.res.status).toBe(200);
    expect(Buffer.from(await blob.res.arrayBuffer()).equals(image(5000, 12))).toBe(true);
    const foreign = await get(`${UPG_BLOB_PREFIX}/${uploaded.dat!.firmware}?t=${t()}`, 'f'.repeat(64));
    expect(foreign.json!.err).toBe(4);
    const row = (await s.call<{ firmware: FirmwareRow[] }>(sess, 'queryFirmwares', { search: 'Upg' })).dat!.firmware[0]!;
    expect(row.desc).toBe('from the upgrade service');
  });
});
