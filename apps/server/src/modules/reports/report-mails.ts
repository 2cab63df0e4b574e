import { REPORT_ENERGY_KEYS, type EmailPushReportType } from '@sunwatch/protocol';
import type { Db } from '../../db/db.js';
import { addDays, dayString, localDay } from '../../shared/local-time.js';
import type { MailQueueRepository, NewMail } from '../notifications/mail-queue.repository.js';
import { reportsOf } from '../notifications/email-push.service.js';
import type { ReportFilesService } from './report-files.service.js';
import { reportTexts } from './report-texts.js';

/** How often the report-mail job looks for due reports. */
export const REPORT_MAIL_INTERVAL_MS = 5 * 60_000;

/** The last complete period of a report type before the local day `today` (YYYYMMDD). */
export function lastPeriod(type: EmailPushReportType, today: number): string {
  if (type === 'daily') return dayString(addDays(today, -1));
  const y = Math.floor(today / 10000);
  const m = Math.floor(today / 100) % 100;
  if (type === 'monthly') return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  return String(y - 1);
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Report mails (issue 11, spec §3 "Email push subscription": report types daily, monthly,
 * yearly): for every enabled subscription, each of its plants and each subscribed type, the last
 * complete period in the plant's time zone (yesterday, last month, last year) is mailed once —
 * dedupe key `report:<subscription>:<plant>:<type>:<period>` in the durable mail queue — with the
 * period's figures in the subscription's language and the xlsx attached (a report file of the
 * subscriber's, which also shows in their export history). The subscriber's access to the plant
 * is checked when the report is built; a plant out of reach is skipped.
 */
export class ReportMailScheduler {
  constructor(
    private readonly deps: {
      db: Db;
      files: ReportFilesService;
      queue: () => Pick<MailQueueRepository, 'enqueue'>;
      /** True when mails go out over SMTP (else to the outbox). */
      sending: () => boolean;
      now: () => number;
      log: { error(obj: unknown, msg?: string): void };
    },
  ) {}

  /** One pass; answers how many mails it queued. */
  async run(): Promise<number> {
    const db = this.deps.db;
    const rows = await db
      .selectFrom('email_push as e')
      .innerJoin('email_push_plants as ep', 'ep.push_id', 'e.id')
      .innerJoin('projects as p', 'p.id', 'ep.project_id')
      .select([
        'e.id',
        'e.account_id',
        'e.email',
        'e.locale',
        'e.report_types',
        'p.id as pid',
        'p.name as pname',
        'p.tz_offset',
      ])
      .where('e.enabled', '=', 1)
      .where('e.report_types', '>', 0)
      .orderBy('e.id')
      .orderBy('p.id')
      .execute();
    let queued = 0;
    for (const r of rows) {
      const today = localDay(this.deps.now(), Number(r.tz_offset));
      for (const type of reportsOf(Number(r.report_types))) {
        const period = lastPeriod(type, today);
        const key = `report:${r.id}:${r.pid}:${type}:${period}`;
        const seen = await db.selectFrom('mail_queue').select('id').where('dedupe_key', '=', key).executeTakeFirst();
        if (seen) continue;
        try {
          const built = await this.deps.files.buildForMail(Number(r.account_id), Number(r.pid), type, period, r.locale);
          if (!built) continue;
          const mail = this.render({
            key,
            accountId: Number(r.account_id),
            email: r.email,
            locale: r.locale,
            plant: r.pname,
            type,
            period,
            ...built,
          });
          if (await this.deps.queue().enqueue(mail, this.deps.sending() ? 'queued' : 'outbox', this.deps.now()))
            queued++;
        } catch (err) {
          this.deps.log.error({ err, push: r.id, plant: r.pid, type }, 'report mail failed');
        }
      }
    }
    return queued;
  }

  private render(m: {
    key: string;
    accountId: number;
    email: string;
    locale: string;
    plant: string;
    type: EmailPushReportType;
    period: string;
    fileId: number;
    name: string;
    currency: string;
    total: { energy: Record<(typeof REPORT_ENERGY_KEYS)[number], number>; income: number };
  }): NewMail {
    const t = reportTexts(m.locale);
    const subject = `${t.periods[m.type]} · ${m.plant} · ${m.period}`;
    const lines: Array<[string, string]> = [
      [t.plant, m.plant],
      [t.period, m.period],
      ...REPORT_ENERGY_KEYS.map((k): [string, string] => [t[k], `${m.total.energy[k]} kWh`]),
      [t.income, `${m.total.income}${m.currency ? ` ${m.currency}` : ''}`],
    ];
    const text = `${subject}\n\n${lines.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${m.name}\n`;
    const html =
      `<h2>${esc(subject)}</h2><table>` +
      lines.map(([k, v]) => `<tr><th align="left">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('') +
      `</table><p>${esc(m.name)}</p>`;
    return {
      dedupeKey: m.key,
      kind: 'report',
      accountId: m.accountId,
      recipient: m.email,
      locale: m.locale,
      subject,
      text,
      html,
      attachments: [{ filename: m.name, exportFileId: m.fileId }],
    };
  }
}
