/**
 * The auxiliary-function form of spec §5: SN and device address entered twice and matching, a
 * device code, start and end dates (at most REPORT_MAX_DAYS days, none in the future).
 */
import type { Dayjs } from 'dayjs';
import { checkReportRange } from '../tabs/report-range';
import type { HelpformValues } from '../api/queries';

export interface HelpformInput {
  sn?: string;
  sn2?: string;
  devaddr?: number | null;
  devaddr2?: number | null;
  devcode?: number | null;
  range?: [Dayjs | null, Dayjs | null] | null;
}

export type HelpformProblem = 'sn' | 'snMismatch' | 'devaddr' | 'addrMismatch' | 'devcode' | 'empty' | 'tooLong' | 'future' | 'order';

export function checkHelpform(v: HelpformInput, today: Dayjs): { ok: true; values: HelpformValues } | { ok: false; problems: HelpformProblem[] } {
  const problems: HelpformProblem[] = [];
  const sn = (v.sn ?? '').trim();
  const sn2 = (v.sn2 ?? '').trim();
  if (sn === '') problems.push('sn');
  else if (sn !== sn2) problems.push('snMismatch');
  const addrOk = (a: number | null | undefined): a is number => typeof a === 'number' && Number.isInteger(a) && a >= 0 && a <= 255;
  if (!addrOk(v.devaddr)) problems.push('devaddr');
  else if (v.devaddr !== v.devaddr2) problems.push('addrMismatch');
  if (!(typeof v.devcode === 'number' && Number.isInteger(v.devcode) && v.devcode >= 1 && v.devcode <= 0xffff)) problems.push('devcode');
  const range = checkReportRange(v.range, today);
  if (!range.ok) problems.push(range.key);
  if (problems.length > 0 || !range.ok) return { ok: false, problems };
  return {
    ok: true,
    values: { sn, sn2, devaddr: v.devaddr as number, devaddr2: v.devaddr2 as number, devcode: v.devcode as number, sdate: range.sdate, edate: range.edate },
  };
}
