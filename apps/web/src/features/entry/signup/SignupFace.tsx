/**
 * Signup face of the entry page (spec §2 "Signup", §4, §5): phone and email tabs in Chinese,
 * email only otherwise; username with a live character count once valid, password with its
 * strength meter, confirmation, datalogger PN, country/region and the verification code (send
 * countdown 90 s phone / 180 s email). regBindMobileUsually / regBindMailboxUsually; success
 * returns to login with username and password prefilled.
 */
import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_COUNTDOWN_S, WEB_COMPANY_KEY, encodeSelfServicePassword } from '@sunwatch/protocol';
import { baseClient } from '../../../app/api';
import { currentLocale } from '../../../i18n';
import { ArrowLeftIcon, LoadingIcon } from '../icons';
import { FieldError } from '../lookup/FieldError';
import { Field, SendCodeButton, StrengthMeter, Tabs, codeTarget, errorText, useCodeCountdown } from './parts';
import { setLoginPrefill } from './prefill';
import {
  COUNTRIES,
  checkEmailForSending,
  checkPhoneForSending,
  checkSignupField,
  countryName,
  signupFields,
  usernameCount,
  type RuleProblem,
  type SignupChannel,
  type SignupField,
  type SignupValues,
} from './signup-rules';
import './selfservice.css';

const EMPTY: SignupValues = { usr: '', pwd: '', confPwd: '', sn: '', country: '', phone: '', email: '', code: '' };

export function SignupFace({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation('selfservice');
  const locale = currentLocale();
  const chinese = locale === 'zh_CN';
  const [channel, setChannel] = useState<SignupChannel>(chinese ? 'phone' : 'email');
  const [values, setValues] = useState<SignupValues>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<SignupField, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  // The countdown belongs to the address the code went to and outlives the face (sessionStorage):
  // another tab, or a corrected address, can be sent to at once (the server still refuses a second
  // code to the same address, 525).
  const [shownLeft, startCountdown] = useCodeCountdown(
    codeTarget('signup', channel, channel === 'phone' ? values.phone : values.email),
  );
  const countries = useMemo(
    () => COUNTRIES.map((c) => ({ code: c, name: countryName(c, locale) })).sort((a, b) => a.name.localeCompare(b.name, locale.replace('_', '-'))),
    [locale],
  );

  const msg = (p: RuleProblem | undefined) => (p ? t(p.key, { ns: 'rules', ...p.values }) : undefined);
  const set = (field: SignupField) => (v: string) => setValues((s) => ({ ...s, [field]: v }));
  const check = (field: SignupField) => setErrors((e) => ({ ...e, [field]: msg(checkSignupField(field, values)) }));

  const switchChannel = (c: SignupChannel) => {
    setChannel(c);
    setErrors({});
    setFormError(undefined);
    setInfo(undefined);
    setValues((v) => ({ ...v, code: '' }));
  };

  const sendCode = async () => {
    setFormError(undefined);
    const field = channel === 'phone' ? 'phone' : 'email';
    const p =
      channel === 'phone'
        ? values.phone.trim()
          ? checkPhoneForSending(values.phone)
          : { key: 'code.phoneFirst', values: {} }
        : checkEmailForSending(values.email);
    if (p) {
      setErrors((e) => ({ ...e, [field]: p.key === 'code.phoneFirst' ? t('code.phoneFirst') : msg(p) }));
      return;
    }
    setSending(true);
    try {
      await baseClient.call(
        'sendSmsCodeMobile',
        channel === 'phone'
          ? { channel: '0', msgType: '0', mobile: values.phone.trim() }
          : { channel: '1', msgType: '0', email: values.email.trim() },
      );
      startCountdown(channel === 'phone' ? CODE_COUNTDOWN_S.signupPhone : CODE_COUNTDOWN_S.signupEmail);
      setInfo(t(channel === 'phone' ? 'code.sentPhone' : 'code.sentEmail'));
    } catch (e) {
      setInfo(undefined);
      setFormError(errorText(e, t('common.failed')));
    } finally {
      setSending(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    const found: Partial<Record<SignupField, string>> = {};
    for (const f of signupFields(channel)) found[f] = msg(checkSignupField(f, values));
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    const usr = values.usr.trim();
    const common = {
      usr,
      ...encodeSelfServicePassword(usr, values.pwd),
      code: values.code.trim(),
      msgType: '0',
      'company-key': WEB_COMPANY_KEY,
      sn: values.sn.trim().toUpperCase(),
      country: values.country,
    };
    try {
      if (channel === 'phone') await baseClient.call('regBindMobileUsually', { ...common, mobile: values.phone.trim() });
      else await baseClient.call('regBindMailboxUsually', { ...common, email: values.email.trim(), channel: '1' });
      setLoginPrefill({ usr, pwd: values.pwd });
      onBack();
    } catch (err) {
      setFormError(errorText(err, t('common.failed')));
    } finally {
      setBusy(false);
    }
  };

  const count = usernameCount(values.usr);
  return (
    <div className="sw-entry-mode" data-testid="entry-mode-signup">
      <div>
        <h2 className="sw-entry-title">{t('entry:modes.signup.title')}</h2>
        <p className="sw-entry-subtitle">{t('signup.subtitle')}</p>
      </div>
      {chinese ? (
        <Tabs
          label={t('signup.channel')}
          value={channel}
          onChange={switchChannel}
          tabs={[
            { key: 'phone', label: t('tabs.phone') },
            { key: 'email', label: t('tabs.email') },
          ]}
        />
      ) : null}
      <form className="sw-entry-form" noValidate onSubmit={(e) => void submit(e)}>
        <Field
          name="usr"
          label={t('fields.usr')}
          value={values.usr}
          error={errors.usr}
          autoComplete="username"
          maxLength={32}
          onChange={set('usr')}
          onBlur={() => check('usr')}
          extra={count ? <span className="sw-ss-count" data-testid="ss-usr-count">{count}</span> : null}
        />
        <Field
          name="pwd"
          type="password"
          label={t('fields.pwd')}
          value={values.pwd}
          error={errors.pwd}
          autoComplete="new-password"
          maxLength={32}
          onChange={set('pwd')}
          onBlur={() => check('pwd')}
          below={<StrengthMeter pwd={values.pwd} />}
        />
        <Field
          name="confPwd"
          type="password"
          label={t('fields.confPwd')}
          value={values.confPwd}
          error={errors.confPwd}
          autoComplete="new-password"
          maxLength={32}
          onChange={set('confPwd')}
          onBlur={() => check('confPwd')}
        />
        <Field name="sn" label={t('fields.pn')} placeholder={t('fields.pnHint')} value={values.sn} error={errors.sn} maxLength={18} onChange={set('sn')} onBlur={() => check('sn')} />
        <div className={errors.country ? 'sw-field sw-field-invalid' : 'sw-field'}>
          <label className="sw-field-label" htmlFor="ss-country">
            {t('fields.country')}
          </label>
          <span className="sw-input" style={{ minWidth: 0, maxWidth: '100%' }}>
            <select
              id="ss-country"
              className="sw-ss-select"
              value={values.country}
              data-testid="ss-country"
              aria-invalid={errors.country ? true : undefined}
              onChange={(e) => {
                set('country')(e.target.value);
                setErrors((er) => ({ ...er, country: undefined }));
              }}
            >
              <option value="">{t('fields.countryPick')}</option>
              {countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </span>
          <FieldError error={errors.country} />
        </div>
        {channel === 'phone' ? (
          <Field name="phone" type="tel" inputMode="tel" label={t('fields.phone')} value={values.phone} error={errors.phone} maxLength={32} onChange={set('phone')} onBlur={() => check('phone')} />
        ) : (
          <Field name="email" type="email" inputMode="email" label={t('fields.email')} value={values.email} error={errors.email} maxLength={64} autoComplete="email" onChange={set('email')} onBlur={() => check('email')} />
        )}
        <Field
          name="code"
          inputMode="numeric"
          label={t('fields.code')}
          value={values.code}
          error={errors.code}
          maxLength={6}
          onChange={set('code')}
          onBlur={() => check('code')}
          after={<SendCodeButton left={shownLeft} busy={sending} onClick={() => void sendCode()} />}
        />
        {info ? <div className="sw-ss-info" role="status">{info}</div> : null}
        {formError ? <div className="sw-ss-error" role="alert" data-testid="ss-form-error">{formError}</div> : null}
        <button type="submit" className="sw-btn sw-btn-primary sw-btn-block sw-btn-large" disabled={busy} data-testid="ss-submit">
          {busy ? <LoadingIcon className="sw-spin" /> : null}
          <span>{t('signup.submit')}</span>
        </button>
      </form>
      <button type="button" className="sw-btn sw-btn-block" onClick={onBack} data-testid="back-to-login">
        <ArrowLeftIcon />
        <span>{t('entry:common.backToLogin')}</span>
      </button>
    </div>
  );
}

export default SignupFace;
