import { ApiError, type MailRow, type MailState } from '@sunwatch/protocol';
import type { AccessService } from '../../access/access.service.js';
import type { Db } from '../../db/db.js';
import type { Engine } from '../../db/dialect.js';
import type { DbHandle } from '../../db/transaction.js';
import { fmtTs } from '../../shared/local-time.js';
import type { AuditService } from '../audit/audit.service.js';
import { AlarmNotifier, type AlarmSuppression } from './alarm-notifier.js';
import { EmailPushRepository } from './email-push.repository.js';
import { EmailPushService } from './email-push.service.js';
import { MailQueueRepository, type MailRowDb } from './mail-queue.repository.js';
import { MailSender, smtpTransport, type MailTransport } from './mail-sender.js';
import type { NotificationsConfig } from './notifications.config.js';

export { AlarmNotifier, type AlarmSuppression, type NotifiableAlarm } from './alarm-notifier.js';
export { MailSender, type MailTransport } from './mail-sender.js';
export type { NotificationsConfig } from './notifications.config.js';

/** The notification services of the context (`ctx.services.notifications`). */
export interface Notifications {
  /** E-mail push subscriptions of the calling account (queryEmailPush, addEmailPush, …). */
  pushes: EmailPushService;
  /** Alarm events → one digest per subscription per run, into the queue. */
  alarms: AlarmNotifier;
  /** The queue → SMTP (no-op without SMTP_URL). */
  sender: MailSender;
  queue: MailQueueRepository;
  /** Operator: the queue and outbox (queryMailOutbox). */
  outbox(p: { state?: MailState | undefined; to?: string | undefined; page: number; pagesize: number }): Promise<{
    total: number;
    page: number;
    pagesize: number;
    mail: MailRow[];
  }>;
  /** Operator: requeues an `unconfirmed` or `failed` mail on purpose (resendMail); 12 / 271. */
  resend(id: number): Promise<void>;
  close(): void;
}

export interface NotificationsDeps {
  db: Db;
  dbh: DbHandle;
  access: AccessService;
  audit: AuditService;
  config: NotificationsConfig;
  now: () => number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** The database engine (PostgreSQL: the alarm notifier reads up to a committed horizon). */
  engine?: Engine;
  /** Alarm filter rules (wired at merge); default: nothing suppressed. */
  suppressed?: AlarmSuppression;
  /** Tests inject a transport; default: SMTP from SMTP_URL, none without it. */
  transport?: MailTransport;
  /** Attachment contents by reference (issue 11 report files). */
  loadAttachment?: (ref: { filename: string; exportFileId: number }) => Promise<Buffer | undefined>;
}

const ts = (v: number | null) => (v === null ? '' : fmtTs(Number(v), 0));

function mailWire(r: MailRowDb): MailRow {
  return {
    id: r.id,
    to: r.recipient,
    subject: r.subject,
    text: r.body_text,
    kind: r.kind,
    state: r.state as MailState,
    attempts: r.attempts,
    createTime: ts(r.created_at),
    nextAttemptTime: r.state === 'queued' ? ts(r.next_attempt_at) : '',
    sentTime: ts(r.sent_at),
    response: r.smtp_response,
    messageId: r.message_id,
    error: r.last_error,
  };
}

export function createNotifications(d: NotificationsDeps): Notifications {
  const pushRepo = new EmailPushRepository(d.db);
  const queue = new MailQueueRepository(d.db);
  const transport = d.transport ?? (d.config.smtpUrl ? smtpTransport(d.config) : undefined);
  const sender = new MailSender({
    repo: queue,
    config: d.config,
    now: d.now,
    transport,
    log: d.log,
    loadAttachment: d.loadAttachment,
  });
  return {
    pushes: new EmailPushService({ repo: pushRepo, access: d.access, audit: d.audit, now: d.now }),
    alarms: new AlarmNotifier({
      db: d.db,
      dbh: d.dbh,
      pushes: pushRepo,
      queue,
      access: d.access,
      config: d.config,
      now: d.now,
      suppressed: d.suppressed ?? (() => Promise.resolve(false)),
      sending: () => sender.enabled,
      engine: d.engine,
    }),
    sender,
    queue,
    async outbox(p) {
      const { total, rows } = await queue.list(p);
      return { total, page: p.page, pagesize: p.pagesize, mail: rows.map(mailWire) };
    },
    async resend(id) {
      const before = await queue.get(id);
      if (!before) throw new ApiError(12);
      if (!(await queue.requeue(id, d.now()))) throw new ApiError(271);
      const after = (await queue.get(id))!;
      await d.audit.record({ entity: 'mail_queue', entityId: id, before: auditView(before), after: auditView(after) });
    },
    close: () => sender.close(),
  };
}

/** What the audit log keeps of a queued mail (no body: it may carry personal data). */
function auditView(r: MailRowDb) {
  return { recipient: r.recipient, subject: r.subject, state: r.state, attempts: r.attempts, lastError: r.last_error, messageId: r.message_id };
}

/** Starts the notification jobs on the server's job runner (each under its database lease). */
export function startNotificationJobs(
  jobs: { every(name: string, intervalMs: number, fn: () => Promise<void>): void },
  n: Notifications,
  config: NotificationsConfig,
): void {
  jobs.every('alarm-mails', config.alarmScanMs, () => n.alarms.runOnce().then(() => undefined));
  if (n.sender.enabled) jobs.every('mail-sender', config.sendMs, () => n.sender.runOnce().then(() => undefined));
}
