/** Form parts shared by the signup and password-retrieval faces (plain React, entry.css + selfservice.css). */
import { useEffect, useId, useReducer } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError, passwordStrength, type PasswordStrength } from '@sunwatch/protocol';
import { FieldError } from '../lookup/FieldError';

export interface FieldProps {
  name: string;
  label: string;
  value: string;
  error?: string | undefined;
  type?: 'text' | 'password' | 'email' | 'tel';
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  inputMode?: 'numeric' | 'email' | 'tel' | 'text';
  onChange: (v: string) => void;
  onBlur?: () => void;
  /** Right of the label (e.g. the live character count). */
  extra?: ReactNode;
  /** Right of the input (e.g. the send-code button, the picture code). */
  after?: ReactNode;
  /** Under the input (e.g. the strength meter). */
  below?: ReactNode;
}

export function Field(p: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={p.error ? 'sw-field sw-field-invalid' : 'sw-field'}>
      <label className="sw-field-label" htmlFor={id}>
        {p.label}
        {p.extra}
      </label>
      <div className="sw-ss-row">
        <span className="sw-input">
          <input
            id={id}
            name={p.name}
            type={p.type ?? 'text'}
            value={p.value}
            placeholder={p.placeholder}
            autoComplete={p.autoComplete ?? 'off'}
            maxLength={p.maxLength ?? 64}
            inputMode={p.inputMode}
            aria-invalid={p.error ? true : undefined}
            aria-describedby={p.error ? errorId : undefined}
            data-testid={`ss-${p.name}`}
            onChange={(e) => p.onChange(e.target.value)}
            onBlur={p.onBlur}
          />
        </span>
        {p.after}
      </div>
      {p.below}
      <FieldError id={errorId} error={p.error} testId={`ss-${p.name}-error`} />
    </div>
  );
}

/** Weak red / medium orange / strong green (spec §5), with its label. */
export function StrengthMeter({ pwd }: { pwd: string }) {
  const { t } = useTranslation('rules');
  if (!pwd) return null;
  const s: PasswordStrength = passwordStrength(pwd);
  return (
    <div className="sw-ss-meter" data-strength={s} data-testid="ss-strength" aria-live="polite">
      <span className="sw-ss-meter-bar" />
      <span className="sw-ss-meter-bar" />
      <span className="sw-ss-meter-bar" />
      <span className="sw-ss-meter-label">{t(`rules.password.strength.${s}`)}</span>
    </div>
  );
}

export function Tabs<K extends string>({ tabs, value, onChange, label }: { tabs: Array<{ key: K; label: string }>; value: K; onChange: (k: K) => void; label: string }) {
  return (
    <div className="sw-ss-tabs" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          className="sw-ss-tab"
          aria-selected={tab.key === value}
          data-testid={`ss-tab-${tab.key}`}
          onClick={() => tab.key !== value && onChange(tab.key)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Send-code deadlines per address (`<purpose>:<channel>:<address>` → epoch ms) in sessionStorage,
 * so a countdown survives leaving the face and coming back (the entry page unmounts a face it
 * leaves) and even a reload in the same tab; another tab starts clean. Expired entries are dropped.
 */
const DEADLINES_KEY = 'sw-entry-code-deadlines';

function readDeadlines(): Record<string, number> {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(DEADLINES_KEY) ?? '{}');
    return v && typeof v === 'object' ? (v as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export function codeDeadline(target: string): number | undefined {
  const d = readDeadlines()[target];
  return typeof d === 'number' && d > Date.now() ? d : undefined;
}

function rememberDeadline(target: string, deadline: number): void {
  const now = Date.now();
  const kept = Object.fromEntries(Object.entries(readDeadlines()).filter(([, d]) => typeof d === 'number' && d > now));
  try {
    sessionStorage.setItem(DEADLINES_KEY, JSON.stringify({ ...kept, [target]: deadline }));
  } catch {
    // storage full or denied: the countdown still runs while the face is open
  }
}

/** The key of an address: purpose, channel and the address as the server compares it. */
export function codeTarget(purpose: 'signup' | 'reset', channel: 'phone' | 'email', address: string): string {
  const a = address.trim();
  return `${purpose}:${channel}:${channel === 'email' ? a.toLowerCase() : a}`;
}

/**
 * The seconds left before another code may be asked for `target` (0 when none is running), and
 * `start(seconds)` after a send. The countdown belongs to the address: another address (a
 * corrected one, the other tab) can be sent to at once; the server still refuses a second code to
 * the same address while the first is valid (525).
 */
export function useCodeCountdown(target: string): [number, (seconds: number) => void] {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  const deadline = codeDeadline(target);
  useEffect(() => {
    if (deadline === undefined) return;
    const timer = setInterval(() => {
      tick();
      if (Date.now() >= deadline) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  const left = deadline === undefined ? 0 : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const start = (seconds: number) => {
    rememberDeadline(target, Date.now() + seconds * 1000);
    tick();
  };
  return [left, start];
}

/** The send-code button: counts down after a send, then re-enables (spec §4). */
export function SendCodeButton({ left, busy, onClick }: { left: number; busy: boolean; onClick: () => void }) {
  const { t } = useTranslation('selfservice');
  return (
    <button type="button" className="sw-btn" disabled={left > 0 || busy} onClick={onClick} data-testid="ss-send-code">
      {left > 0 ? t('code.resendIn', { seconds: left }) : t('code.send')}
    </button>
  );
}

/** The message of a failed call: the server's text in the interface language. */
export function errorText(e: unknown, fallback: string): string {
  if (e instanceof ApiCallError) return e.msg ?? e.desc;
  return fallback;
}
export function errorCode(e: unknown): number | undefined {
  return e instanceof ApiCallError ? e.err : undefined;
}
