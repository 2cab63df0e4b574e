import ExcelJS from 'exceljs';
import { DEVCODE_2341, type AuthDat, type ValTs } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { dayStartMs } from '../../src/shared/local-time.js';
import { waitFor } from '../factories/telemetry-ingest.js';
import { insertDatalogger, insertDevice, insertPlant, insertSamples } from '../factories/telemetry-rows.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { TestSmtp } from '../notifications/smtp.js';

/**
 * Issue 11's scheduled report mail sent for real: a monthly report subscription, the report-mail
 * job's run, the running server's sender delivering through an in-process SMTP server
 * (smtp-server). The received message carries the xlsx as a MIME attachment; parsed, its cells
 * equal the figures the API gives for the same plant and month (queryPlantEnergyMonthPerDay,
 * queryPlantEnergyMonth), and the mail's text names the same total.
 */
const TZ = 7200;
const DEV = { pn: 'RPTM0000000001', devcode: 2341, devaddr: 1, sn: 'RPTM-SN-0001' };
/** Daily generated energy (kWh) on day-of-month i. */
const inc = (i: number) => 10 + (i % 7) + (i % 3) * 0.25;

describe.each(engines)('a scheduled report mail over SMTP with its xlsx ($name)', (engine) => {
  const smtp = new TestSmtp();
  let s: TestServer;
  let anna: AuthDat;
  let plant = 0;

  beforeAll(async () => {
    await smtp.up();
    s = await startTestServer(engine, {
      now: FIXED_NOW,
      config: {
        notifications: {
          ...loadConfig({}).notifications,
          smtpUrl: smtp.url,
          publicUrl: 'https://portal.example',
          alarmScanMs: 100,
          sendMs: 100,
          smtpTimeoutMs: 5000,
        },
      },
    });
    const r = await s.login('owner_anna', 'Owner_2026');
    expect(r.err).toBe(0);
    anna = r.dat!;
    const db = s.ctx.db;
    const now = s.clock.now();
    plant = await insertPlant(db, { owner_id: anna.uid, name: 'Mail Roof', now, tz_offset: TZ, unit_profit: 0.2, currency: 'EUR' });
    const dl = await insertDatalogger(db, { pn: DEV.pn, now, owner_id: anna.uid, project_id: plant, tz_offset: TZ });
    const dev = await insertDevice(db, { datalogger_id: dl, ...DEV, now, project_id: plant, alias: 'Roof inverter' });
    // 2026-04-30 … 2026-06-14: two samples a day (00:30 and 20:00 local), the PV counter rising by inc(day).
    let counter = 1000;
    const samples: Array<{ ts: number; values: Record<string, number> }> = [];
    for (let t = Date.UTC(2026, 3, 30); t <= Date.UTC(2026, 5, 14); t += 86_400_000) {
      const d = new Date(t);
      const day = d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
      const start = dayStartMs(day, TZ);
      samples.push({ ts: start + 30 * 60_000, values: { energy_pv_total: counter, pv_output_power: 0 } });
      counter += inc(d.getUTCDate());
      samples.push({ ts: start + 20 * 3600_000, values: { energy_pv_total: counter, pv_output_power: 0 } });
    }
    await insertSamples(db, DEVCODE_2341, dev, samples, TZ);
  }, 60_000);

  afterAll(async () => {
    await s?.stop();
    await smtp.down();
  });

  it('delivers the monthly report through SMTP; the attached xlsx equals the API figures cell by cell', async () => {
    const email = 'anna.monthly@example.com';
    const sub = await s.call<{ id: number }>(anna, 'addEmailPush', {
      email,
      pid: String(plant),
      report: 'monthly',
      language: 'de_DE',
    });
    expect(sub.err).toBe(0);
    // The report-mail job's pass (the app schedules it too; a mail is never queued twice).
    await s.ctx.services.reports.mails.run();
    const mail = await waitFor(async () => smtp.to(email)[0], 30_000);
    const row = await waitFor(
      () =>
        s.ctx.db
          .selectFrom('mail_queue')
          .selectAll()
          .where('recipient', '=', email)
          .where('state', '=', 'sent')
          .executeTakeFirst(),
      10_000,
    );
    expect(row.dedupe_key).toBe(`report:${sub.dat!.id}:${plant}:monthly:2026-05`);
    expect(mail.messageId).toBe(row.message_id);
    expect(mail.subject).toBe(row.subject);
    expect(mail.subject).toContain('Mail Roof');
    expect(mail.subject).toContain('2026-05');

    // The attachment as received: one xlsx, the file name the mail was queued with.
    const [ref] = JSON.parse(row.attachments!) as Array<{ filename: string }>;
    expect(mail.attachments).toHaveLength(1);
    const att = mail.attachments[0]!;
    expect(att.filename).toBe(ref!.filename);
    expect(att.filename).toMatch(/\.xlsx$/);
    expect(att.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(att.content.subarray(0, 2).toString('latin1')).toBe('PK'); // a zip container
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(att.content as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(String(ws.getCell('A1').value)).toContain('Mail Roof');

    // The API's figures for the same plant and month.
    const perDay = await s.call<{ perday: ValTs[] }>(anna, 'queryPlantEnergyMonthPerDay', { plantid: plant, date: '2026-05' });
    expect(perDay.err).toBe(0);
    expect(perDay.dat!.perday).toHaveLength(31);
    const month = await s.call<{ energy: string }>(anna, 'queryPlantEnergyMonth', { plantid: plant, date: '2026-05' });
    expect(month.err).toBe(0);
    // Rows 6–36 are the days (column A the date, B the energy produced, a number), row 37 the total.
    for (let i = 1; i <= 31; i++) {
      const date = `2026-05-${String(i).padStart(2, '0')}`;
      expect(ws.getCell(`A${5 + i}`).value).toBe(date);
      const cell = ws.getCell(`B${5 + i}`).value;
      expect(typeof cell).toBe('number');
      const api = perDay.dat!.perday.find((v) => v.ts.startsWith(date));
      expect(api, date).toBeDefined();
      expect(cell as number).toBeCloseTo(Number(api!.val), 3);
      expect(cell as number).toBeCloseTo(inc(i), 3);
    }
    const total = ws.getCell('B37').value as number;
    expect(total).toBeCloseTo(Number(month.dat!.energy), 3);
    // The mail's text names the same total (and the income at 0.2 EUR/kWh).
    const expected = [...Array(31).keys()].reduce((a, i) => a + inc(i + 1), 0);
    expect(total).toBeCloseTo(expected, 3);
    expect(mail.text).toContain(`${Math.round(expected * 10000) / 10000} kWh`);

    // Sent once: another pass of the job queues nothing, the sender sends nothing more.
    expect(await s.ctx.services.reports.mails.run()).toBe(0);
    expect((await s.ctx.services.notifications.sender.runOnce()).sent).toBe(0);
    expect(smtp.to(email)).toHaveLength(1);
  }, 60_000);
});
