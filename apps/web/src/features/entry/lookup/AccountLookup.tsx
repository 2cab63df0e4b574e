/**
 * Account retrieval (spec §2, mode `retrieveUser`): a device serial number (one capital letter
 * then digits, ≤ 24) → the masked account, e-mail and phone of its owner (`retrieveUsrByPnEs`).
 * 257 shows the serial-number error; a submit while one is in flight is ignored.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError, lookupSerialSchema, ruleErrorKey, RULE_MESSAGE_VALUES, type RetrieveUsrDat, type RuleMessageKey } from '@sunwatch/protocol';
import { baseClient } from '../../../app/api';
import { ArrowLeftIcon, LoadingIcon } from '../icons';
import { errorText } from './error-text';
import { FieldError } from './FieldError';
import './entry-extras.css';

export interface AccountLookupProps {
  onBack: () => void;
  /** Injected in tests. */
  lookup?: (pn: string) => Promise<RetrieveUsrDat>;
}

const defaultLookup = (pn: string) => baseClient.call('retrieveUsrByPnEs', { pn });

export function AccountLookup({ onBack, lookup = defaultLookup }: AccountLookupProps) {
  const { t } = useTranslation('entryExtras');
  const id = useId();
  const [pn, setPn] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [found, setFound] = useState<RetrieveUsrDat>();
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);

  const check = (value: string): string | undefined => {
    const key = ruleErrorKey(lookupSerialSchema, value.trim());
    return key ? t(key, { ns: 'rules', ...(RULE_MESSAGE_VALUES[key as RuleMessageKey] ?? {}) }) : undefined;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (inFlight.current) return; // spec §5: ignored while one is in flight
    const problem = check(pn);
    setFieldError(problem);
    if (problem) return;
    inFlight.current = true;
    setBusy(true);
    setFailure(undefined);
    setFound(undefined);
    try {
      setFound(await lookup(pn.trim()));
    } catch (err) {
      setFailure(err instanceof ApiCallError && err.err === 257 ? t('lookup.notFound') : errorText(t, err));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <div data-testid="entry-mode-retrieveUser" className="sw-entry-mode">
      <div>
        <h2 className="sw-entry-title">{t('lookup.title')}</h2>
        <p className="sw-entry-subtitle">{t('lookup.subtitle')}</p>
      </div>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <div className={fieldError ? 'sw-field sw-field-invalid' : 'sw-field'}>
          <label className="sw-field-label" htmlFor={id}>
            {t('lookup.serial')}
          </label>
          <span className="sw-input">
            <input
              id={id}
              value={pn}
              maxLength={24}
              autoComplete="off"
              placeholder={t('lookup.placeholder')}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? `${id}-e` : undefined}
              data-testid="lookup-serial"
              onChange={(e) => setPn(e.target.value)}
              onBlur={() => setFieldError(check(pn))}
            />
          </span>
          <FieldError id={`${id}-e`} error={fieldError} testId="lookup-field-error" />
        </div>
        {failure ? (
          <div className="sw-alert sw-alert-error" role="alert" data-testid="lookup-error">
            {failure}
          </div>
        ) : null}
        {found ? (
          <dl className="sw-lookup-result" data-testid="lookup-result" aria-live="polite">
            <dt>{t('lookup.account')}</dt>
            <dd data-testid="lookup-usr">{found.usr}</dd>
            <dt>{t('lookup.email')}</dt>
            <dd data-testid="lookup-email">{found.email || t('lookup.none')}</dd>
            <dt>{t('lookup.mobile')}</dt>
            <dd data-testid="lookup-mobile">{found.mobile || t('lookup.none')}</dd>
          </dl>
        ) : null}
        <button type="submit" className="sw-btn sw-btn-primary sw-btn-block sw-btn-large" aria-busy={busy} data-testid="lookup-submit">
          {busy ? <LoadingIcon /> : null}
          <span>{t('lookup.submit')}</span>
        </button>
      </form>
      <button type="button" className="sw-btn sw-btn-block" onClick={onBack} data-testid="back-to-login">
        <ArrowLeftIcon />
        <span>{t('common.backToLogin')}</span>
      </button>
    </div>
  );
}

export default AccountLookup;
