/** Form parts shared by the signup and password-retrieval faces (plain React, entry.css + selfservice.css). */
import { useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError, passwordStrength, type PasswordStrength } from '@sunwatch/protocol';

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
      <div className="sw-field-error" id={errorId} role={p.error ? 'alert' : undefined}>
        {p.error ?? ''}
      </div>
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

/** A countdown in seconds; `start(n)` restarts it. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);
  const start = (seconds: number) => {
    clearInterval(timer.current);
    setLeft(seconds);
    timer.current = setInterval(() => {
      setLeft((n) => {
        if (n <= 1) clearInterval(timer.current);
        return Math.max(0, n - 1);
      });
    }, 1000);
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
