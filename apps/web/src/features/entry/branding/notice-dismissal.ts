/**
 * A notice dialog is shown once per browser session and version: closing it stores `<id>:<uts>`
 * in session storage; an edited notice (new uts) shows again, a new session shows it again.
 */
import type { NoticeDat } from '@sunwatch/protocol';

export const NOTICE_DISMISSED_KEY = 'sw.notice.dismissed';

const versionOf = (n: Pick<NoticeDat, 'id' | 'uts'>): string => `${n.id}:${n.uts}`;

export function shouldShowNotice(n: NoticeDat | undefined, store: Pick<Storage, 'getItem'> = sessionStorage): boolean {
  if (!n || n.msgType !== 2) return false;
  try {
    return store.getItem(NOTICE_DISMISSED_KEY) !== versionOf(n);
  } catch {
    return true;
  }
}

export function dismissNotice(n: NoticeDat, store: Pick<Storage, 'setItem'> = sessionStorage): void {
  try {
    store.setItem(NOTICE_DISMISSED_KEY, versionOf(n));
  } catch {
    /* private mode: shown again next time */
  }
}
