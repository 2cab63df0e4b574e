/**
 * Login mode of the entry page (spec §2, §4 "Login submit"): the form, the slider puzzle in
 * a modal, then the sign-in flow of login-flow.ts and the redirect.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent as ReactKeyboardEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  CloseCircleFilledIcon,
  CloseIcon,
  ExclamationCircleFilledIcon,
  EyeIcon,
  EyeInvisibleIcon,
  LoadingIcon,
  LockIcon,
  UserIcon,
} from './icons';
import { SliderPuzzle } from './SliderPuzzle';
import { PUZZLE_WIDTH } from './puzzle-logic';
import { checkLoginPwd, checkLoginUsr } from './login-rules';
import type { RuleProblem } from './login-rules';
import { loginErrorView, runLogin } from './login-flow';
import type { LoginDeps, LoginErrorView } from './login-flow';
import { appLoginDeps } from './login-deps';
import type { EntryMode } from './modes';
import { takeLoginPrefill } from './signup/prefill';
import { FieldError } from './lookup/FieldError';

/** Spec §4: the sign-in starts 1 s after the puzzle is solved. */
export const AFTER_PUZZLE_DELAY_MS = 1000;
/** Spec §9: login retry delay. */
export const RETRY_DELAY_MS = 1000;

interface Pending {
  usr: string;
  pwd: string;
  remember: boolean;
}

type Problem = { kind: 'error'; view: LoginErrorView } | { kind: 'loggingOff' };

export interface LoginFormProps {
  onMode: (mode: EntryMode) => void;
  /** Injected in tests; the app's API client and session store otherwise. */
  deps?: LoginDeps<unknown>;
  /** Slider puzzle tolerance (px). */
  puzzleAccuracy?: number;
}

type Field = 'usr' | 'pwd';

const CHECKS: Record<Field, (value: unknown) => RuleProblem | undefined> = { usr: checkLoginUsr, pwd: checkLoginPwd };

interface TextFieldProps {
  name: Field;
  label: string;
  type: 'text' | 'password';
  icon: ReactNode;
  value: string;
  error: string | undefined;
  placeholder: string;
  autoComplete: string;
  testId: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  /** Password fields: the show/hide toggle. */
  reveal?: { shown: boolean; onToggle: () => void; showLabel: string; hideLabel: string };
}

/** A labelled input with its icon, its rule message under it (announced) and aria-invalid. */
function TextField({
  name,
  label,
  type,
  icon,
  value,
  error,
  placeholder,
  autoComplete,
  testId,
  onChange,
  onBlur,
  reveal,
}: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={error ? 'sw-field sw-field-invalid' : 'sw-field'}>
      <label className="sw-field-label" htmlFor={id}>
        {label}
      </label>
      <span className="sw-input">
        <span className="sw-input-prefix">{icon}</span>
        <input
          id={id}
          name={name}
          type={reveal?.shown ? 'text' : type}
          value={value}
          placeholder={placeholder}
          autoComplete={autoComplete}
          maxLength={64}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          data-testid={testId}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        />
        {reveal ? (
          <button
            type="button"
            className="sw-input-suffix"
            aria-label={reveal.shown ? reveal.hideLabel : reveal.showLabel}
            aria-pressed={reveal.shown}
            onClick={reveal.onToggle}
          >
            {reveal.shown ? <EyeIcon /> : <EyeInvisibleIcon />}
          </button>
        ) : null}
      </span>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

interface DialogProps {
  open: boolean;
  title: string;
  closeLabel: string;
  width: number;
  onCancel: () => void;
  children: ReactNode;
}

/**
 * The puzzle's modal dialog: a mask that does not close it, Escape and the close button do;
 * focus moves into it on open (the slider), stays inside with Tab, and returns on close.
 */
function Dialog({ open, title, closeLabel, width, onCancel, children }: DialogProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>('[role="slider"]') ?? box.current;
    first?.focus();
    return () => before?.focus?.();
  }, [open]);
  if (!open) return null;
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onCancel();
      return;
    }
    if (e.key !== 'Tab' || !box.current) return;
    const items = Array.from(
      box.current.querySelectorAll<HTMLElement>('button:not(:disabled), [tabindex]:not([tabindex="-1"])'),
    );
    if (items.length === 0) return;
    const firstItem = items[0]!;
    const lastItem = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === firstItem) {
      e.preventDefault();
      lastItem.focus();
    } else if (!e.shiftKey && document.activeElement === lastItem) {
      e.preventDefault();
      firstItem.focus();
    }
  };
  return (
    <div className="sw-dialog-mask">
      <div
        ref={box}
        className="sw-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={{ width }}
        onKeyDown={onKeyDown}
        data-testid="puzzle-dialog"
      >
        <div className="sw-dialog-head">
          <h2 id={titleId} className="sw-dialog-title">
            {title}
          </h2>
          <button
            type="button"
            className="sw-dialog-close"
            aria-label={closeLabel}
            title={closeLabel}
            onClick={onCancel}
          >
            <CloseIcon />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export function LoginForm({ onMode, deps = appLoginDeps as LoginDeps<unknown>, puzzleAccuracy }: LoginFormProps) {
  const { t } = useTranslation('entry');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [values, setValues] = useState<Record<Field, string>>(() => takeLoginPrefill() ?? { usr: '', pwd: '' });
  const [remember, setRemember] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [showPwd, setShowPwd] = useState(false);
  const [puzzleOpen, setPuzzleOpen] = useState(false);
  const [puzzleKey, setPuzzleKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const fieldRefs = useRef<HTMLFormElement | null>(null);
  // credentials live only in memory, between submit and the sign-in call
  const pending = useRef<Pending | null>(null);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const set = timers.current;
    return () => {
      for (const id of set) clearTimeout(id);
      set.clear();
      pending.current = null;
    };
  }, []);

  const later = (fn: () => void, ms: number) => {
    const id = setTimeout(() => {
      timers.current.delete(id);
      fn();
    }, ms);
    timers.current.add(id);
  };

  const messageOf = (field: Field, value: string): string | undefined => {
    const p = CHECKS[field](value);
    return p ? t(p.key, { ns: 'rules', ...p.values }) : undefined;
  };

  const check = (field: Field) => setErrors((e) => ({ ...e, [field]: messageOf(field, values[field]) }));

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy || blocked) return;
    const found: Partial<Record<Field, string>> = {
      usr: messageOf('usr', values.usr),
      pwd: messageOf('pwd', values.pwd),
    };
    setErrors(found);
    const firstBad = (['usr', 'pwd'] as const).find((f) => found[f]);
    if (firstBad) {
      fieldRefs.current?.querySelector<HTMLInputElement>(`input[name="${firstBad}"]`)?.focus();
      return;
    }
    setProblem(null);
    pending.current = { usr: values.usr.trim(), pwd: values.pwd.trim(), remember };
    setPuzzleKey((k) => k + 1);
    setPuzzleOpen(true);
  };

  const signIn = async () => {
    const input = pending.current;
    pending.current = null;
    if (!input) return;
    setBusy(true);
    try {
      const outcome = await runLogin({ ...input, redirect: searchParams.get('redirect') }, deps);
      if (outcome.kind === 'redirect') {
        void navigate(outcome.to, { replace: true });
        return;
      }
      setProblem({ kind: 'loggingOff' });
    } catch (e) {
      setProblem({ kind: 'error', view: loginErrorView(e) });
      setBlocked(true);
      later(() => setBlocked(false), RETRY_DELAY_MS);
    } finally {
      setBusy(false);
    }
  };

  const onPuzzleSuccess = () => {
    later(() => {
      setPuzzleOpen(false);
      void signIn();
    }, AFTER_PUZZLE_DELAY_MS);
  };

  const onPuzzleCancel = () => {
    for (const id of timers.current) clearTimeout(id);
    timers.current.clear();
    pending.current = null;
    setPuzzleOpen(false);
  };

  const problemText =
    problem?.kind === 'loggingOff'
      ? t('special.accountLoggingOff', { ns: 'errors' })
      : problem
        ? (problem.view.text ?? t(problem.view.key, { ns: 'errors' }))
        : '';

  const ProblemIcon = problem?.kind === 'loggingOff' ? ExclamationCircleFilledIcon : CloseCircleFilledIcon;

  return (
    <>
      <form ref={fieldRefs} className="sw-entry-form" noValidate onSubmit={onSubmit} aria-label={t('login.title')}>
        <fieldset disabled={busy}>
          <TextField
            name="usr"
            label={t('login.usr')}
            type="text"
            icon={<UserIcon />}
            value={values.usr}
            error={errors.usr}
            placeholder={t('login.usrPlaceholder')}
            autoComplete="username"
            testId="login-username"
            onChange={(v) => setValues((x) => ({ ...x, usr: v }))}
            onBlur={() => check('usr')}
          />
          <TextField
            name="pwd"
            label={t('login.pwd')}
            type="password"
            icon={<LockIcon />}
            value={values.pwd}
            error={errors.pwd}
            placeholder={t('login.pwdPlaceholder')}
            autoComplete="current-password"
            testId="login-password"
            onChange={(v) => setValues((x) => ({ ...x, pwd: v }))}
            onBlur={() => check('pwd')}
            reveal={{
              shown: showPwd,
              onToggle: () => setShowPwd((v) => !v),
              showLabel: t('login.showPassword'),
              hideLabel: t('login.hidePassword'),
            }}
          />
          <div className="sw-entry-links" style={{ marginBottom: 16 }}>
            <label className="sw-checkbox">
              <input
                type="checkbox"
                name="remember"
                checked={remember}
                onChange={(e) => setRemember(e.target.checked)}
                data-testid="login-remember"
              />
              <span>{t('login.remember')}</span>
            </label>
            <button type="button" className="sw-link" onClick={() => onMode('retrieve')} data-testid="link-retrieve">
              {t('login.forgotPassword')}
            </button>
          </div>
        </fieldset>
        {problem ? (
          <div
            className={`sw-alert sw-alert-${problem.kind === 'loggingOff' ? 'warning' : 'error'}`}
            role="alert"
            data-testid="login-error"
            data-code={problem.kind === 'error' ? problem.view.code : undefined}
          >
            <ProblemIcon className="sw-alert-icon" />
            <span>{problemText}</span>
          </div>
        ) : null}
        <button
          type="submit"
          className="sw-btn sw-btn-primary sw-btn-block sw-btn-large"
          disabled={blocked || busy}
          aria-busy={busy || undefined}
          data-testid="login-submit"
        >
          {busy ? <LoadingIcon className="sw-spin" /> : null}
          <span>{busy ? t('login.signingIn') : t('login.submit')}</span>
        </button>
      </form>
      <div className="sw-entry-links" style={{ marginTop: 16 }}>
        <button
          type="button"
          className="sw-link"
          onClick={() => onMode('retrieveUser')}
          data-testid="link-retrieve-user"
        >
          {t('login.forgotAccount')}
        </button>
        <span>
          <span className="sw-text-secondary">{t('login.noAccount')} </span>
          <button type="button" className="sw-link" onClick={() => onMode('signup')} data-testid="link-signup">
            {t('login.signup')}
          </button>
        </span>
      </div>
      <Dialog
        open={puzzleOpen}
        title={t('puzzle.title')}
        closeLabel={t('puzzle.close')}
        width={PUZZLE_WIDTH + 48}
        onCancel={onPuzzleCancel}
      >
        <p className="sw-text-secondary" style={{ margin: '0 0 12px' }}>
          {t('puzzle.instructions')}
        </p>
        <SliderPuzzle key={puzzleKey} accuracy={puzzleAccuracy} onSuccess={onPuzzleSuccess} />
      </Dialog>
    </>
  );
}

export default LoginForm;
