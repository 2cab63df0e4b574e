import ExcelJS from 'exceljs';
import { DEVCODE_5121, EXPORT_STATUS, ROLE, type AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_LEASE_MS } from '../../src/db/job-lease.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { insertDatalogger, insertDevice, insertPlant, insertSamples } from '../factories/telemetry-rows.js';
import { makeAccount } from '../distribution/helpers.js';

/**
 * Issue 10, gap 1: a device report export is a durable job of the reports runner. An instance that
 * dies while building one leaves the row "exporting" under its lease; once the lease has expired,
 * another instance (or the same one after its restart) takes it over, builds it from the stored
 * request and the file downloads.
 */
const PN = 'EXPTAKE000001';
const DEV = { pn: PN, devcode: 5121, devaddr: 1, sn: 'EXPTAKE000001S' };

type FileRow = { id: number; status: number; progress: number; size: number; name: string };

describe.each(engines)('device report export survives a crash ($name)', (engine) => {
  let s: TestServer;
  let owner: AuthDat;

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    const id = await makeAccount(s, 'owner_exports', ROLE.OWNER, 'dealer_north', { password: 'Owner_2026' });
    owner = (await s.login('owner_exports', 'Owner_2026')).dat!;
    const now = s.clock.now();
    const pid = await insertPlant(s.ctx.db, { owner_id: id, name: 'Export plant', now, tz_offset: 0 });
    const dl = await insertDatalogger(s.ctx.db, { pn: PN, now, owner_id: id, project_id: pid, tz_offset: 0 });
    const dev = await insertDevice(s.ctx.db, { datalogger_id: dl, ...DEV, now, project_id: pid });
    // 2026-06-10 .. 06-12 UTC, one sample an hour.
    const samples = Array.from({ length: 3 * 24 }, (_, h) => ({ ts: Date.UTC(2026, 5, 10, h), values: { sy_energy_total: 1000 + h } }));
    await insertSamples(s.ctx.db, DEVCODE_5121, dev, samples, 0);
  });
  afterAll(async () => {
    await s?.stop();
  });

  const files = async (on: TestServer) =>
    (await on.call<{ file: FileRow[] }>(owner, 'webQueryExportFiles')).dat!.file;

  it('an export left mid-way by a crashed instance completes on another once its lease expires, and downloads', async () => {
    // This instance's runner is stopped: the request only stores the job.
    await s.ctx.services.reports.runner.stop();
    const r = await s.call<FileRow>(owner, 'exportDeviceReport', { ...DEV, sdate: '2026-06-10', edate: '2026-06-12', i18n: 'de_DE' });
    expect(r.err).toBe(0);
    const id = r.dat!.id;
    expect(r.dat).toMatchObject({ status: EXPORT_STATUS.EXPORTING, progress: 0 });

    // A builder that dies after its first day: it claimed the job, stored 33 % and never returns.
    const curves = s.ctx.services.devices.curves;
    const dataOneDay = curves.dataOneDay.bind(curves);
    let calls = 0;
    curves.dataOneDay = (...a: Parameters<typeof dataOneDay>) => (++calls === 1 ? dataOneDay(...a) : new Promise<never>(() => undefined));
    void s.ctx.services.deviceOps.reports.next('crashed-instance');
    const until = async (what: string, f: () => Promise<boolean>) => {
      for (let i = 0; i < 300 && !(await f()); i++) await new Promise((res) => setTimeout(res, 50));
      expect(await f(), what).toBe(true);
    };
    const row = () =>
      s.ctx.db.selectFrom('export_files').select(['status', 'progress', 'lease_owner', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
    await until('the crashed builder stored its progress', async () => Number((await row()).progress) === 33);
    curves.dataOneDay = dataOneDay;
    expect(await row()).toMatchObject({ lease_owner: 'crashed-instance' });

    // The restarted or other instance: its runner starts with the server and leaves a live lease alone.
    const other = await startTestServer(engine, { shareWith: s, seed: false });
    try {
      await other.ctx.services.reports.runner.drain();
      expect((await files(other)).find((f) => f.id === id)).toMatchObject({ status: EXPORT_STATUS.EXPORTING, progress: 33 });

      // The lease runs out: the next pass takes the job over and builds it to its end.
      s.clock.advance(JOB_LEASE_MS + 1000);
      other.ctx.services.reports.runner.kick();
      await other.ctx.services.reports.runner.idle();
      await until('the export is ready', async () => Number((await row()).status) === EXPORT_STATUS.READY);
      const done = await row();
      expect(done.lease_owner).toBe(other.ctx.services.reports.runner.owner);
      expect(Number(done.attempts)).toBe(2);
      const file = (await files(other)).find((f) => f.id === id)!;
      expect(file).toMatchObject({ status: EXPORT_STATUS.READY, progress: 100 });

      const url = await other.call<{ url: string }>(owner, 'queryExportFileUrl', { id });
      expect(url.err).toBe(0);
      const res = await fetch(other.url + url.dat!.url);
      expect(res.status).toBe(200);
      const buf = Buffer.from(await res.arrayBuffer());
      expect(buf.length).toBe(file.size);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(buf as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      // German headers (the language of the request), then the three days' 72 samples.
      expect(String(ws.getRow(1).getCell(1).value)).toBe('Zeitstempel');
      expect(ws.rowCount).toBe(1 + 72);
      expect(String(ws.getRow(2).getCell(1).value)).toBe('2026-06-10 00:00:00');
    } finally {
      await other.stop();
    }
  });

  it('a row left "exporting" without a lease (the in-process builder before migration 0025) is built when a runner starts', async () => {
    const r = await s.call<FileRow>(owner, 'exportDeviceReport', { ...DEV, sdate: '2026-06-11', edate: '2026-06-11', i18n: 'en_US' });
    expect(r.err).toBe(0);
    expect(Number((await s.ctx.db.selectFrom('export_files').select('lease_until').where('id', '=', r.dat!.id).executeTakeFirstOrThrow()).lease_until)).toBe(0);
    s.ctx.services.reports.runner.start();
    await s.ctx.services.reports.runner.idle();
    expect((await files(s)).find((f) => f.id === r.dat!.id)).toMatchObject({ status: EXPORT_STATUS.READY, progress: 100 });
  });
});
