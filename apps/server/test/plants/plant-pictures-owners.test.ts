/**
 * Issue 10 plant gaps (s21-pl): picture clean-up (replaced, cleared, deleted plant, never attached)
 * and the plant owner an administrator may choose (an owner without any plant).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROLE, signCall, type AccountInfoDat, type AuthDat, type Envelope } from '@sunwatch/protocol';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanPlantPictures } from '../../src/jobs/clean-plant-pictures.job.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { idOf, makeAccount, prepare } from '../distribution/helpers.js';

let saltSeq = 0;
type Picture = { picBig: string; picSmall: string };

async function upload(s: TestServer, session: AuthDat): Promise<Picture> {
  saltSeq += 1;
  const salt = String(s.clock.now() + 3_000_000 + saltSeq);
  const tail = `&action=uploadPlantImage`;
  const q = `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
  const p = new PNG({ width: 40, height: 30 });
  p.data.fill(120 + saltSeq);
  const fd = new FormData();
  fd.set('file', new Blob([new Uint8Array(PNG.sync.write(p))]), 'roof.png');
  const res = (await s.request<Envelope<Picture>>(q, { method: 'POST', body: fd })).body;
  if (res.err !== 0) throw new Error(`upload: ${res.err}`);
  return res.dat!;
}

describe.each(engines)('plant pictures and owners ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  const as = (usr: string) => sessions.get(usr)!;
  const dir = () => path.join(s.dataDir, 'plant-images');
  const stored = (url: string) => fs.existsSync(path.join(dir(), path.basename(url)));
  const both = (p: Picture) => [stored(p.picBig), stored(p.picSmall)];
  const addPlant = async (name: string, pic: Picture) => {
    const r = await s.call<{ pid: number }>(as('owner_dora'), 'addPlant', { name, 'address.timezone': 0, ...pic });
    expect(r.err).toBe(0);
    return r.dat!.pid;
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    sessions = await prepare(s);
    sessions.set('owner_dora', (await s.login('owner_dora', 'Owner_2026')).dat!);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('a replaced or cleared picture and the pictures of a deleted plant are removed with the write', async () => {
    const first = await upload(s, as('owner_dora'));
    const pid = await addPlant('Pictures one', first);
    expect(both(first)).toEqual([true, true]);

    // replaced: the old picture and thumbnail go, the new ones are served
    const second = await upload(s, as('owner_dora'));
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: pid, ...second })).err).toBe(0);
    expect(both(first)).toEqual([false, false]);
    expect(both(second)).toEqual([true, true]);
    expect((await fetch(`${s.url}${first.picBig}`)).status).toBe(404);
    expect((await fetch(`${s.url}${second.picSmall}`)).status).toBe(200);

    // a refused edit (another time zone, 6) rolls back and keeps the picture it would have replaced
    const third = await upload(s, as('owner_dora'));
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: pid, ...third, 'address.timezone': 3600 })).err).toBe(6);
    expect(both(second)).toEqual([true, true]);

    // a picture another plant also shows stays while that plant shows it
    const other = await addPlant('Pictures two', second);
    expect((await s.call(as('owner_dora'), 'delPlant', { plantid: pid })).err).toBe(0);
    expect(both(second)).toEqual([true, true]);
    // cleared on the other plant: nothing shows it any more
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: other, picBig: '', picSmall: '' })).err).toBe(0);
    expect(both(second)).toEqual([false, false]);

    // a deleted plant takes its picture with it
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: other, ...third })).err).toBe(0);
    expect((await s.call(as('owner_dora'), 'delPlant', { plantid: other })).err).toBe(0);
    expect(both(third)).toEqual([false, false]);
  });

  it('the periodic job removes uploads never attached once a day old, and keeps fresh uploads and attached pictures', async () => {
    const abandoned = await upload(s, as('owner_dora'));
    const attached = await upload(s, as('owner_dora'));
    const fresh = await upload(s, as('owner_dora'));
    const pid = await addPlant('Pictures kept', attached);
    const twoDaysAgo = (s.clock.now() - 2 * 86_400_000) / 1000;
    for (const url of [abandoned.picBig, abandoned.picSmall, attached.picBig, attached.picSmall]) {
      fs.utimesSync(path.join(dir(), path.basename(url)), twoDaysAgo, twoDaysAgo);
    }
    const hourAgo = (s.clock.now() - 3600_000) / 1000;
    for (const url of [fresh.picBig, fresh.picSmall]) fs.utimesSync(path.join(dir(), path.basename(url)), hourAgo, hourAgo);
    // a file that is not a stored picture is never touched
    fs.writeFileSync(path.join(dir(), 'README.txt'), 'kept');
    fs.utimesSync(path.join(dir(), 'README.txt'), twoDaysAgo, twoDaysAgo);

    const removed = await cleanPlantPictures(s.ctx);
    expect(removed.sort()).toEqual([path.basename(abandoned.picBig), path.basename(abandoned.picSmall)].sort());
    expect(both(abandoned)).toEqual([false, false]);
    expect(both(attached)).toEqual([true, true]);
    expect(both(fresh)).toEqual([true, true]);
    expect(fs.existsSync(path.join(dir(), 'README.txt'))).toBe(true);
    expect((await s.call(as('owner_dora'), 'delPlant', { plantid: pid })).err).toBe(0);
  });

  it('an administrator finds an owner without any plant (queryPlantOwners, searched and paged) and creates a plant for it; a foreign owner is refused (11)', async () => {
    const uid = await makeAccount(s, 'owner_fresh_field', ROLE.OWNER, 'dealer_north');
    expect(await s.ctx.db.selectFrom('projects').select('id').where('owner_id', '=', uid).executeTakeFirst()).toBeUndefined();
    const found = await s.call<{ total: number; plantOwner: AccountInfoDat[] }>(as('dealer_north'), 'queryPlantOwners', {
      usr: 'fresh_fi',
      page: 0,
      pagesize: 10,
    });
    expect(found.err).toBe(0);
    expect(found.dat!.plantOwner.map((o) => o.uid)).toEqual([uid]);
    const created = await s.call<{ pid: number }>(as('dealer_north'), 'addPlant', { name: 'Fresh field', 'address.timezone': 0, uid });
    expect(created.err).toBe(0);
    const row = await s.ctx.db.selectFrom('projects').selectAll().where('id', '=', created.dat!.pid).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ owner_id: uid, is_default: 1 });
    // another tenant's owner: not in the picker's list, and refused by the server
    const ben = await idOf(s, 'owner_ben');
    const foreign = await s.call<{ plantOwner: AccountInfoDat[] }>(as('dealer_north'), 'queryPlantOwners', { usr: 'owner_ben', page: 0, pagesize: 10 });
    expect(foreign.dat!.plantOwner).toEqual([]);
    expect((await s.call(as('dealer_north'), 'addPlant', { name: 'Not yours', 'address.timezone': 0, uid: ben })).err).toBe(11);
  });
});
