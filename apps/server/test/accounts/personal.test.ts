import fs from 'node:fs';
import path from 'node:path';
import { avatarThumb, signCall, type AccountInfoDat, type AuthDat, type AvatarDat, type Envelope } from '@sunwatch/protocol';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanAvatars, UNATTACHED_AVATAR_TTL_MS } from '../../src/modules/accounts/avatars.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

let saltSeq = 0;
/** A signed multipart upload to uploadAvatar. */
async function upload(s: TestServer, session: AuthDat, bytes: Uint8Array, filename: string) {
  saltSeq += 1;
  const salt = String(s.clock.now() + 4_000_000 + saltSeq);
  const tail = `&action=uploadAvatar`;
  const q = `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
  const fd = new FormData();
  fd.set('file', new Blob([Buffer.from(bytes)]), filename);
  return (await s.request<Envelope<AvatarDat>>(q, { method: 'POST', body: fd })).body;
}

function png(width: number, height: number): Uint8Array {
  const p = new PNG({ width, height });
  p.data.fill(200);
  return new Uint8Array(PNG.sync.write(p));
}

describe.each(engines)('personal settings: editAccount and the avatar ($name)', (engine) => {
  let s: TestServer;
  let anna: AuthDat;
  let ben: AuthDat;

  beforeAll(async () => {
    s = await startTestServer(engine);
    anna = (await s.login('owner_anna', 'Owner_2026')).dat!;
    ben = (await s.login('owner_ben', 'Owner_2026')).dat!;
  });
  afterAll(async () => {
    await s?.stop();
  });

  const info = async (who: AuthDat) => (await s.call<AccountInfoDat>(who, 'queryAccountInfo', {})).dat!;

  it('edits nickname and company data of the caller only, audited before → after; omitted stays, empty clears', async () => {
    const before = await info(anna);
    const r = await s.call(anna, 'editAccount', { qname: 'Anna E.', cname: 'Elbblick GmbH', caddr: 'Elbchaussee 1, Hamburg', ctel: '+49 40 123456' });
    expect(r.err).toBe(0);
    const after = await info(anna);
    expect(after).toMatchObject({ qname: 'Anna E.', cname: 'Elbblick GmbH', caddr: 'Elbchaussee 1, Hamburg', ctel: '+49 40 123456', email: before.email });
    expect((await info(ben)).qname).not.toBe('Anna E.');
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'account')
      .where('entity_id', '=', String(anna.uid))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('editAccount');
    expect(JSON.parse(audit.after!)).toMatchObject({ qname: 'Anna E.', cname: 'Elbblick GmbH' });
    expect(JSON.parse(audit.before!)).toMatchObject({ qname: before.qname });

    expect((await s.call(anna, 'editAccount', { caddr: '' })).err).toBe(0);
    expect(await info(anna)).toMatchObject({ caddr: '', cname: 'Elbblick GmbH' });
  });

  it('refuses fields against the rules of spec §5 and leaves the account as it was', async () => {
    const cases: Array<[Record<string, string>, number]> = [
      [{ qname: 'A' }, 6], // nickname 2-32
      [{ qname: 'x'.repeat(33) }, 6],
      [{ qname: '<b>x</b>' }, 6],
      [{ cname: 'y'.repeat(65) }, 22],
      [{ ctel: 'call me' }, 19],
      [{ caddr: 'Elbchaussee <script>' }, 6],
      [{ photo: 'javascript:alert(1)' }, 6],
      // A local path that is no stored avatar.
      [{ photo: '/files/avatar/0123456789abcdef0123456789abcdef.png' }, 6],
      [{ photo: '/etc/passwd' }, 6],
    ];
    for (const [params, err] of cases) expect((await s.call(anna, 'editAccount', params)).err, JSON.stringify(params)).toBe(err);
    expect((await info(anna)).qname).toBe('Anna E.');
  });

  it('stores an uploaded jpg/png avatar outside the database with a thumbnail; editAccount photo= saves it', async () => {
    const res = await upload(s, anna, png(1500, 900), 'me.png');
    expect(res.err).toBe(0);
    const dat = res.dat!;
    expect(dat.photo).toMatch(/^\/files\/avatar\/[0-9a-f]{32}\.png$/);
    expect(dat.thumb).toBe(avatarThumb(dat.photo));
    expect([dat.width, dat.height]).toEqual([1024, 614]);
    const served = await fetch(new URL(dat.thumb, s.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const thumb = PNG.sync.read(Buffer.from(await served.arrayBuffer()));
    expect(Math.max(thumb.width, thumb.height)).toBe(128);
    expect(fs.existsSync(path.join(s.dataDir, 'avatars', path.basename(dat.photo)))).toBe(true);

    expect((await s.call(anna, 'editAccount', { photo: dat.photo })).err).toBe(0);
    expect((await info(anna)).photo).toBe(dat.photo);
    expect((await fetch(new URL('/files/avatar/../master.key', s.url))).status).toBe(404);
  });

  it('checks the file by its bytes and its size (jpg/png ≤ 8 MB)', async () => {
    const fake = new TextEncoder().encode('GIF89a not a picture at all');
    expect((await upload(s, anna, fake, 'x.png')).err).toBe(6);
    const big = new Uint8Array(8 * 1024 * 1024 + 10);
    big.set(png(4, 4));
    expect((await upload(s, anna, big, 'big.png')).err).not.toBe(0);
  });

  it('removes the files of a replaced or cleared avatar unless another account shows it; the sweep removes old unsaved uploads', async () => {
    const file = (url: string) => path.join(s.dataDir, 'avatars', path.basename(url));
    const stored = (url: string) => fs.existsSync(file(url)) && fs.existsSync(file(avatarThumb(url)!));
    const gone = (url: string) => !fs.existsSync(file(url)) && !fs.existsSync(file(avatarThumb(url)!));
    const up = async () => (await upload(s, anna, png(64, 64), 'a.png')).dat!.photo;

    const first = await up();
    expect((await s.call(anna, 'editAccount', { photo: first })).err).toBe(0);
    const second = await up();
    expect((await s.call(anna, 'editAccount', { photo: second })).err).toBe(0);
    expect(gone(first)).toBe(true); // replaced: picture and thumbnail removed
    expect(stored(second)).toBe(true);
    // an edit that fails keeps the avatar
    expect((await s.call(anna, 'editAccount', { photo: '', qname: 'A' })).err).toBe(6);
    expect(stored(second)).toBe(true);
    // editing other fields leaves it alone
    expect((await s.call(anna, 'editAccount', { qname: 'Anna E.' })).err).toBe(0);
    expect(stored(second)).toBe(true);
    // ben shows the same picture: anna clearing hers keeps the files
    expect((await s.call(ben, 'editAccount', { photo: second })).err).toBe(0);
    expect((await s.call(anna, 'editAccount', { photo: '' })).err).toBe(0);
    expect((await info(anna)).photo).toBe('');
    expect(stored(second)).toBe(true);
    expect((await s.call(ben, 'editAccount', { photo: '' })).err).toBe(0);
    expect(gone(second)).toBe(true);

    // the sweep: an upload never saved stays while its form may be open, then goes; a shown one stays
    const abandoned = await up();
    const shown = await up();
    expect((await s.call(ben, 'editAccount', { photo: shown })).err).toBe(0);
    expect(await cleanAvatars(s.ctx)).toEqual([]);
    const old = (s.clock.now() - UNATTACHED_AVATAR_TTL_MS - 60_000) / 1000;
    for (const url of [abandoned, shown]) for (const f of [file(url), file(avatarThumb(url)!)]) fs.utimesSync(f, old, old);
    const removed = await cleanAvatars(s.ctx);
    expect(removed.sort()).toEqual([path.basename(abandoned), path.basename(avatarThumb(abandoned)!)].sort());
    expect(gone(abandoned)).toBe(true);
    expect(stored(shown)).toBe(true);
  });
});
