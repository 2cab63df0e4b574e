/**
 * Password retrieval face (spec §2, §4 "Password retrieval steps 0 to 3", §5): phone and email
 * tabs in Chinese, email only otherwise. Step 0 account + picture code (the server's image, click
 * to refresh) advances on 515; step 1 the bound address + code (countdown 60 s phone / 300 s email)
 * advances once confirmSmsCode accepts it; step 2 the new password through smsCodeUpdatePassword;
 * step 3 success with a link to login. Switching tabs resets every field and returns to step 0;
 * returning to step 0 refreshes the picture code.
 */
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CODE_COUNTDOWN_S,
  confirmPasswordError,
  encodeSelfServicePassword,
  passwordSchema,
  ruleErrorKey,
  RULE_MESSAGE_VALUES,
  loginUsernameSchema,
  verificationCodeSchema,
  type RuleMessageKey,
} from '@sunwatch/protocol';
import { baseClient } from '../../../app/api';
import { currentLocale } from '../../../i18n';
import { CheckCircleFilledIcon, CloseIcon, LoadingIcon } from '../icons';
import { Field, SendCodeButton, StrengthMeter, Tabs, codeTarget, errorCode, errorText, useCodeCountdown } from '../signup/parts';
import { checkEmailForSending, checkPictureCode, checkPhoneForSending, type RuleProblem } from '../signup/signup-rules';
import '../signup/selfservice.css';

type Channel = 'phone' | 'email';
type Step = 0 | 1 | 2 | 3;
interface Values {
  usr: string;
  verifycode: string;
  contact: string;
  smsCode: string;
  pwd: string;
  confPwd: string;
}
const EMPTY: Values = { usr: '', verifycode: '', contact: '', smsCode: '', pwd: '', confPwd: '' };
const problem = (key: string | undefined): RuleProblem | undefined =>
  key ? { key, values: RULE_MESSAGE_VALUES[key as RuleMessageKey] ?? {} } : undefined;

export function RetrieveFace({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation('selfservice');
  const chinese = currentLocale() === 'zh_CN';
  const [channel, setChannel] = useState<Channel>(chinese ? 'phone' : 'email');
  const [step, setStep] = useState<Step>(0);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const [picture, setPicture] = useState<{ key: string; img: string }>();
  const [left, startCountdown] = useCodeCountdown(codeTarget('reset', channel, values.contact));

  const msg = (p: RuleProblem | undefined) => (p ? t(p.key, { ns: 'rules', ...p.values }) : undefined);
  const set = (f: keyof Values) => (v: string) => setValues((s) => ({ ...s, [f]: v }));

  const refreshPicture = useCallback(async () => {
    try {
      setPicture(await baseClient.call('getPictureCode', {}));
    } catch (e) {
      setFormError(errorText(e, t('common.failed')));
    }
  }, [t]);

  useEffect(() => {
    if (step === 0) void refreshPicture();
  }, [step, refreshPicture]);

  const reset = (c: Channel) => {
    setChannel(c);
    setValues(EMPTY);
    setErrors({});
    setFormError(undefined);
    setInfo(undefined);
    if (step === 0) void refreshPicture();
    setStep(0);
  };

  const channelParam = channel === 'phone' ? '0' : '1';
  const contactParam = (v: string) => (channel === 'phone' ? { mobile: v.trim() } : { email: v.trim() });

  const step0 = async () => {
    const found = {
      usr: msg(problem(ruleErrorKey(loginUsernameSchema, values.usr.trim()))),
      verifycode: msg(checkPictureCode(values.verifycode)),
    };
    setErrors(found);
    if (found.usr || found.verifycode || !picture) return;
    try {
      await baseClient.call('sendSmsCode', { usr: values.usr.trim(), msgType: '02', channel: channelParam, vkey: picture.key, vcode: values.verifycode.trim() });
      setFormError(t('common.failed'));
    } catch (e) {
      const code = errorCode(e);
      if (code === 515) {
        setStep(1);
        return;
      }
      setFormError(code === 514 ? t(channel === 'phone' ? 'retrieve.noPhone' : 'retrieve.noEmail') : errorText(e, t('common.failed')));
      setValues((v) => ({ ...v, verifycode: '' }));
      void refreshPicture();
    }
  };

  const sendCode = async () => {
    setFormError(undefined);
    const p = channel === 'phone' ? checkPhoneForSending(values.contact) : checkEmailForSending(values.contact, true);
    if (p) {
      setErrors((e) => ({ ...e, contact: msg(p) }));
      return;
    }
    setSending(true);
    try {
      await baseClient.call('sendSmsCode', { usr: values.usr.trim(), msgType: '02', channel: channelParam, ...contactParam(values.contact), webName: 'Sunwatch' });
      startCountdown(channel === 'phone' ? CODE_COUNTDOWN_S.resetPhone : CODE_COUNTDOWN_S.resetEmail);
      setInfo(t(channel === 'phone' ? 'code.sentPhone' : 'code.sentEmail'));
    } catch (e) {
      setInfo(undefined);
      setFormError(errorCode(e) === 515 ? t(channel === 'phone' ? 'retrieve.phoneMismatch' : 'retrieve.emailMismatch') : errorText(e, t('common.failed')));
    } finally {
      setSending(false);
    }
  };

  const step1 = async () => {
    const contactProblem = channel === 'phone' ? checkPhoneForSending(values.contact) : checkEmailForSending(values.contact, true);
    const found = { contact: msg(contactProblem), smsCode: msg(problem(ruleErrorKey(verificationCodeSchema, values.smsCode.trim()))) };
    setErrors(found);
    if (found.contact || found.smsCode) return;
    try {
      await baseClient.call('confirmSmsCode', { usr: values.usr.trim(), msgType: '02', smsCode: values.smsCode.trim() });
      setInfo(undefined);
      setStep(2);
    } catch (e) {
      setFormError(errorText(e, t('common.failed')));
    }
  };

  const step2 = async () => {
    const found = {
      pwd: msg(problem(ruleErrorKey(passwordSchema, values.pwd))),
      confPwd: msg(problem(confirmPasswordError(values.pwd, values.confPwd))),
    };
    setErrors(found);
    if (found.pwd || found.confPwd) return;
    const usr = values.usr.trim();
    try {
      await baseClient.call('smsCodeUpdatePassword', {
        usr,
        msgType: '02',
        channel: channel === 'phone' ? '00' : '01',
        smsCode: values.smsCode.trim(),
        ...encodeSelfServicePassword(usr, values.pwd),
        ...contactParam(values.contact),
        webName: 'Sunwatch',
      });
      setStep(3);
    } catch (e) {
      setFormError(errorText(e, t('common.failed')));
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    setBusy(true);
    try {
      if (step === 0) await step0();
      else if (step === 1) await step1();
      else if (step === 2) await step2();
    } finally {
      setBusy(false);
    }
  };

  const steps = [t('retrieve.step0'), t('retrieve.step1'), t('retrieve.step2'), t('retrieve.step3')];
  return (
    <div className="sw-entry-mode" data-testid="entry-mode-retrieve" data-step={step}>
      <div className="sw-ss-head">
        <div>
          <h2 className="sw-entry-title">{t('entry:modes.retrieve.title')}</h2>
          <p className="sw-entry-subtitle">{t('entry:modes.retrieve.subtitle')}</p>
        </div>
        <button type="button" className="sw-btn sw-btn-text sw-btn-icon" aria-label={t('entry:common.backToLogin')} title={t('entry:common.backToLogin')} onClick={onBack} data-testid="back-to-login">
          <CloseIcon />
        </button>
      </div>
      {chinese ? (
        <Tabs
          label={t('retrieve.channel')}
          value={channel}
          onChange={reset}
          tabs={[
            { key: 'phone', label: t('tabs.phone') },
            { key: 'email', label: t('tabs.email') },
          ]}
        />
      ) : null}
      <ol className="sw-ss-steps" aria-label={t('retrieve.progress')}>
        {steps.map((label, i) => (
          <li key={label} data-state={i < step ? 'done' : i === step ? 'current' : 'todo'} aria-current={i === step ? 'step' : undefined}>
            {label}
          </li>
        ))}
      </ol>
      {step === 3 ? (
        <div className="sw-ss-done" role="status" data-testid="ss-retrieve-done">
          <CheckCircleFilledIcon />
          <p>{t('retrieve.done')}</p>
          <button type="button" className="sw-btn sw-btn-primary sw-btn-block" onClick={onBack} data-testid="ss-to-login">
            {t('retrieve.toLogin')}
          </button>
        </div>
      ) : (
        <form className="sw-entry-form" noValidate onSubmit={(e) => void submit(e)}>
          {step === 0 ? (
            <>
              <Field name="usr" label={t('fields.usr')} value={values.usr} error={errors.usr} autoComplete="username" onChange={set('usr')} />
              <Field
                name="verifycode"
                label={t('fields.pictureCode')}
                value={values.verifycode}
                error={errors.verifycode}
                maxLength={4}
                onChange={set('verifycode')}
                after={
                  <button type="button" className="sw-ss-picture" title={t('retrieve.refreshPicture')} aria-label={t('retrieve.refreshPicture')} onClick={() => void refreshPicture()} data-testid="ss-picture">
                    {picture ? <img src={picture.img} alt={t('fields.pictureCode')} /> : <LoadingIcon className="sw-spin" />}
                  </button>
                }
              />
            </>
          ) : null}
          {step === 1 ? (
            <>
              <Field
                name="contact"
                type={channel === 'phone' ? 'tel' : 'email'}
                label={t(channel === 'phone' ? 'fields.boundPhone' : 'fields.boundEmail')}
                value={values.contact}
                error={errors.contact}
                onChange={set('contact')}
              />
              <Field name="smsCode" inputMode="numeric" label={t('fields.code')} value={values.smsCode} error={errors.smsCode} maxLength={6} onChange={set('smsCode')} after={<SendCodeButton left={left} busy={sending} onClick={() => void sendCode()} />} />
            </>
          ) : null}
          {step === 2 ? (
            <>
              <Field name="pwd" type="password" label={t('fields.newPwd')} value={values.pwd} error={errors.pwd} autoComplete="new-password" maxLength={32} onChange={set('pwd')} below={<StrengthMeter pwd={values.pwd} />} />
              <Field name="confPwd" type="password" label={t('fields.confPwd')} value={values.confPwd} error={errors.confPwd} autoComplete="new-password" maxLength={32} onChange={set('confPwd')} />
            </>
          ) : null}
          {info ? <div className="sw-ss-info" role="status">{info}</div> : null}
          {formError ? <div className="sw-ss-error" role="alert" data-testid="ss-form-error">{formError}</div> : null}
          <button type="submit" className="sw-btn sw-btn-primary sw-btn-block sw-btn-large" disabled={busy} data-testid="ss-next">
            {busy ? <LoadingIcon className="sw-spin" /> : null}
            <span>{step === 2 ? t('retrieve.reset') : t('retrieve.next')}</span>
          </button>
        </form>
      )}
    </div>
  );
}

export default RetrieveFace;
