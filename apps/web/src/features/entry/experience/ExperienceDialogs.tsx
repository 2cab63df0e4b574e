/**
 * Experience code (spec §2 "Login", §4 "Demo/invitation login", §5 "Experience code"): the
 * invitation-code dialog signs in to a read-only demo account (`validateInvCode`; the old
 * session is cleared first; 11 → invalid or outside its validity period), and the apply dialog
 * sends the application form (status '0', sysType '1', createTime).
 */
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  ApiCallError,
  RULE_MESSAGE_VALUES,
  experienceApplyFormSchema,
  invitationCodeSchema,
  ruleErrorKey,
  type RuleMessageKey,
} from '@sunwatch/protocol';
import type { z } from 'zod';
import { baseClient } from '../../../app/api';
import { CloseIcon, ExperimentIcon, LoadingIcon } from '../icons';
import { appLoginDeps } from '../login-deps';
import { logoutOldSession } from '../login-flow';
import { errorText } from '../lookup/error-text';
import { FieldError } from '../lookup/FieldError';
import '../lookup/entry-extras.css';
import { markDemoSession } from './demo-session';
import { useMovableDialog } from '../movable-dialog';

function Dialog({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ReactNode; testId: string }) {
  const { t } = useTranslation('entryExtras');
  const titleId = useId();
  const m = useMovableDialog({ move: t('common.move'), resize: t('common.resize') }, 440);
  const box = m.box;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>('input, textarea')?.focus();
    return () => before?.focus?.();
  }, [box]);
  return (
    <div className="sw-dialog-mask">
      <div
        ref={box}
        className="sw-dialog sw-xp-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        style={m.style}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
        data-testid={testId}
      >
        <div className="sw-dialog-head" {...m.handle}>
          <h2 id={titleId} className="sw-dialog-title">
            {title}
          </h2>
          <button type="button" className="sw-dialog-close" aria-label={t('common.close')} title={t('common.close')} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div style={m.bodyStyle}>{children}</div>
        {m.grip}
      </div>
    </div>
  );
}

function Field(props: {
  label: string;
  value: string;
  error?: string | undefined;
  onChange: (v: string) => void;
  onBlur?: () => void;
  testId: string;
  multiline?: boolean;
  type?: string;
  maxLength?: number;
}) {
  const id = useId();
  const common = {
    id,
    value: props.value,
    maxLength: props.maxLength ?? 64,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': props.error ? `${id}-e` : undefined,
    'data-testid': props.testId,
    onBlur: props.onBlur,
  };
  return (
    <div className={props.error ? 'sw-field sw-field-invalid' : 'sw-field'}>
      <label className="sw-field-label" htmlFor={id}>
        {props.label}
      </label>
      <span className="sw-input">
        {props.multiline ? (
          <textarea {...common} onChange={(e) => props.onChange(e.target.value)} />
        ) : (
          <input {...common} type={props.type ?? 'text'} onChange={(e) => props.onChange(e.target.value)} />
        )}
      </span>
      <FieldError id={`${id}-e`} error={props.error} />
    </div>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
/** createTime of the application: local yyyy-MM-dd hh:mm:ss (spec §3). */
export function applyCreateTime(d = new Date()): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

type ApplyField = 'applyName' | 'companyName' | 'companyAddress' | 'phoneNumber' | 'email' | 'reason';
const APPLY_FIELDS: ApplyField[] = ['applyName', 'companyName', 'companyAddress', 'phoneNumber', 'email', 'reason'];

function ApplyForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('entryExtras');
  const [values, setValues] = useState<Record<ApplyField, string>>({
    applyName: '',
    companyName: '',
    companyAddress: '',
    phoneNumber: '',
    email: '',
    reason: '',
  });
  const [errors, setErrors] = useState<Partial<Record<ApplyField, string>>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const check = (f: ApplyField, v: string): string | undefined => {
    const schema = experienceApplyFormSchema.shape[f] as z.ZodType;
    const key = ruleErrorKey(schema, f === 'companyName' || f === 'companyAddress' ? v || undefined : v.trim());
    return key ? t(key, { ns: 'rules', ...(RULE_MESSAGE_VALUES[key as RuleMessageKey] ?? {}) }) : undefined;
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const next: Partial<Record<ApplyField, string>> = {};
    for (const f of APPLY_FIELDS) {
      const m = check(f, values[f]);
      if (m) next[f] = m;
    }
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await baseClient.call('addInvCodeApply', {
        applyName: values.applyName.trim(),
        companyName: values.companyName.trim() || undefined,
        companyAddress: values.companyAddress.trim() || undefined,
        phoneNumber: values.phoneNumber.trim(),
        email: values.email.trim(),
        reason: values.reason.trim(),
        status: '0',
        sysType: '1',
        createTime: applyCreateTime(),
      });
      setSent(true);
    } catch (err) {
      setFailure(errorText(t, err));
    } finally {
      setBusy(false);
    }
  };
  if (sent) {
    return (
      <div>
        <p className="sw-alert-success" role="status" data-testid="apply-sent">
          {t('experience.applySent')}
        </p>
        <button type="button" className="sw-btn sw-btn-block" onClick={onDone}>
          {t('common.close')}
        </button>
      </div>
    );
  }
  const field = (f: ApplyField, extra: { multiline?: boolean; type?: string; maxLength?: number } = {}) => (
    <Field
      key={f}
      label={t(`experience.fields.${f}`)}
      value={values[f]}
      error={errors[f]}
      testId={`apply-${f}`}
      onChange={(v) => setValues((s) => ({ ...s, [f]: v }))}
      onBlur={() => setErrors((s) => ({ ...s, [f]: check(f, values[f]) }))}
      {...extra}
    />
  );
  return (
    <form noValidate className="sw-xp-form" onSubmit={(e) => void submit(e)}>
      {field('applyName', { maxLength: 32 })}
      {field('companyName', { maxLength: 128 })}
      {field('companyAddress', { maxLength: 256 })}
      {field('phoneNumber', { type: 'tel', maxLength: 32 })}
      {field('email', { type: 'email' })}
      {field('reason', { multiline: true, maxLength: 1000 })}
      {failure ? (
        <div className="sw-alert-error" role="alert">
          {failure}
        </div>
      ) : null}
      <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" aria-busy={busy} data-testid="apply-submit">
        {busy ? <LoadingIcon /> : null}
        <span>{t('experience.applySubmit')}</span>
      </button>
    </form>
  );
}

export function ExperienceEntry() {
  const { t } = useTranslation('entryExtras');
  const navigate = useNavigate();
  const [open, setOpen] = useState<'code' | 'apply' | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  const checkCode = (v: string) => {
    const key = ruleErrorKey(invitationCodeSchema, v.trim());
    return key ? t(key, { ns: 'rules' }) : undefined;
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const m = checkCode(code);
    setError(m);
    if (m) return;
    setBusy(true);
    setFailure(undefined);
    try {
      // spec §4: the session is cleared first, then auth is saved on success
      await logoutOldSession(appLoginDeps);
      appLoginDeps.clearSession();
      const dat = await baseClient.call('validateInvCode', { invCode: code.trim(), sysType: '1' });
      markDemoSession(dat.token, dat.expire); // the areas show the read-only demo banner
      appLoginDeps.saveLogin(dat, { remember: false });
      const session = appLoginDeps.getSession();
      void navigate(session ? appLoginDeps.homePathFor(session) : '/home', { replace: true });
    } catch (err) {
      const invalid = err instanceof ApiCallError && (err.err === 11 || err.err === 6);
      setFailure(invalid ? t('experience.invalid') : errorText(t, err));
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="sw-btn sw-btn-text sw-btn-small" onClick={() => setOpen('code')} data-testid="experience-open">
        <ExperimentIcon />
        <span>{t('experience.button')}</span>
      </button>
      {open === 'code' ? (
        <Dialog title={t('experience.title')} onClose={() => setOpen(null)} testId="experience-dialog">
          <p className="sw-entry-subtitle">{t('experience.intro')}</p>
          <form noValidate onSubmit={(e) => void submit(e)}>
            <Field
              label={t('experience.code')}
              value={code}
              error={error}
              onChange={setCode}
              onBlur={() => setError(checkCode(code))}
              testId="experience-code"
              maxLength={32}
            />
            {failure ? (
              <div className="sw-alert-error" role="alert" data-testid="experience-error">
                {failure}
              </div>
            ) : null}
            <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" aria-busy={busy} data-testid="experience-submit">
              {busy ? <LoadingIcon /> : null}
              <span>{t('experience.enter')}</span>
            </button>
          </form>
          <div className="sw-xp-links">
            <span>{t('experience.noCode')}</span>
            <button type="button" className="sw-btn sw-btn-text sw-btn-small" onClick={() => setOpen('apply')} data-testid="apply-open">
              {t('experience.apply')}
            </button>
          </div>
        </Dialog>
      ) : null}
      {open === 'apply' ? (
        <Dialog title={t('experience.applyTitle')} onClose={() => setOpen(null)} testId="apply-dialog">
          <ApplyForm onDone={() => setOpen(null)} />
        </Dialog>
      ) : null}
    </>
  );
}

export default ExperienceEntry;
