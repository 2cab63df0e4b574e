import { ROLE } from '@sunwatch/protocol';
import { fmtTs } from '../../shared/local-time.js';
import { alarmDescription, alarmLevelName } from './alarm-text.js';
import { fill, mailTexts } from './mail-texts.js';

/** An alarm event to announce: raised (still active or already ended) or ended. */
export interface AlarmEvent {
  kind: 'raised' | 'cleared';
  alarmId: number;
  level: number;
  code: number;
  /** The stored (English) description; the mail translates from the definitions. */
  description: string;
  devcode: number | null;
  devtype: number | null;
  /** Device alias, else its SN; '' for a datalogger alarm. */
  device: string;
  sn: string;
  pn: string;
  plantId: number;
  plantName: string;
  /** Seconds east of UTC of the plant (times are shown in the plant's time). */
  tz: number;
  startedAt: number;
  endedAt: number | null;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Rows listed in one digest; the rest is counted and linked to the alarm list. */
export const DIGEST_MAX_ROWS = 100;

/** The web area an account's links open (alarm page of its area, new edition). */
export function areaOf(role: number): string {
  if (role === ROLE.OWNER || role === ROLE.VIEWER) return 'generalNew';
  if (role === ROLE.OPERATOR) return 'adminNewStatr';
  return 'adminNew';
}

export function alarmLink(publicUrl: string, role: number, alarmId: number): string {
  return `${publicUrl}/${areaOf(role)}/alarm?id=${alarmId}`;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "2026-06-15 12:00:00 (UTC+08:00)". */
export function localTime(ms: number, tz: number): string {
  const sign = tz < 0 ? '-' : '+';
  const a = Math.abs(tz);
  const hh = String(Math.floor(a / 3600)).padStart(2, '0');
  const mm = String(Math.floor((a % 3600) / 60)).padStart(2, '0');
  return `${fmtTs(ms, tz)} (UTC${sign}${hh}:${mm})`;
}

/**
 * One mail for a subscriber: a single event reads as that alarm (subject names it); several are
 * one digest (subject counts them), with at most DIGEST_MAX_ROWS rows and a link to the list.
 * Every row links to its alarm (`<publicUrl>/<area>/alarm?id=<id>`).
 */
export function renderAlarmMail(
  events: readonly AlarmEvent[],
  to: { email: string; locale: string; role: number },
  publicUrl: string,
): RenderedMail {
  if (events.length === 0) throw new Error('renderAlarmMail: no events');
  const t = mailTexts(to.locale);
  const rows = events.slice(0, DIGEST_MAX_ROWS).map((e) => {
    const desc = alarmDescription(e, to.locale);
    const device = e.device ? `${e.device} (${e.pn})` : e.pn;
    return {
      e,
      level: alarmLevelName(e.level, to.locale),
      desc,
      device,
      started: localTime(e.startedAt, e.tz),
      ended: e.endedAt === null ? '' : localTime(e.endedAt, e.tz),
      status: e.endedAt === null ? t.active : t.cleared,
      link: alarmLink(publicUrl, to.role, e.alarmId),
    };
  });
  const first = rows[0]!;
  const plants = new Set(events.map((e) => e.plantId)).size;
  const subject =
    events.length > 1
      ? fill(t.subjectDigest, { count: events.length, plants })
      : first.e.kind === 'cleared'
        ? fill(t.subjectCleared, { desc: first.desc, plant: first.e.plantName })
        : fill(t.subjectRaised, { level: first.level, desc: first.desc, plant: first.e.plantName });
  const listLink = `${publicUrl}/${areaOf(to.role)}/alarm`;
  const rest = events.length - rows.length;
  const footer = fill(t.footer, { email: to.email });

  const text = [
    t.intro,
    '',
    ...rows.flatMap((r) => [
      `${r.level} · ${r.desc}`,
      `  ${t.colDevice}: ${r.device}`,
      `  ${t.colPlant}: ${r.e.plantName}`,
      `  ${t.colStarted}: ${r.started}`,
      ...(r.ended ? [`  ${t.colEnded}: ${r.ended}`] : []),
      `  ${t.colStatus}: ${r.status}`,
      `  ${t.viewAlarm}: ${r.link}`,
      '',
    ]),
    ...(rest > 0 ? [fill(t.more, { count: rest }), ''] : []),
    `${t.viewAll}: ${listLink}`,
    '',
    '--',
    footer,
  ].join('\n');

  const th = (s: string) => `<th align="left" style="padding:4px 8px;border-bottom:1px solid #ddd">${esc(s)}</th>`;
  const td = (s: string) => `<td style="padding:4px 8px;border-bottom:1px solid #eee">${s}</td>`;
  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#222">',
    `<p>${esc(t.intro)}</p>`,
    '<table cellspacing="0" style="border-collapse:collapse">',
    `<tr>${[t.colType, t.colDescription, t.colDevice, t.colPlant, t.colStarted, t.colEnded, t.colStatus].map(th).join('')}<th></th></tr>`,
    ...rows.map(
      (r) =>
        `<tr>${[r.level, r.desc, r.device, r.e.plantName, r.started, r.ended, r.status].map((v) => td(esc(v))).join('')}` +
        td(`<a href="${esc(r.link)}">${esc(t.viewAlarm)}</a>`) +
        '</tr>',
    ),
    '</table>',
    ...(rest > 0 ? [`<p>${esc(fill(t.more, { count: rest }))}</p>`] : []),
    `<p><a href="${esc(listLink)}">${esc(t.viewAll)}</a></p>`,
    `<p style="color:#888;font-size:12px">${esc(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
