/**
 * Login mode of the entry page (spec §2, §4 "Login submit"): the form, the slider puzzle in
 * a modal, then the sign-in flow of login-flow.ts and the redirect.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Modal, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { SliderPuzzle } from './SliderPuzzle';
import { PUZZLE_WIDTH } from './puzzle-logic';
import { checkLoginPwd, checkLoginUsr } from './login-rules';
import { loginErrorView, runLogin } from './login-flow';
import type { LoginDeps, LoginErrorView } from './login-flow';
import { appLoginDeps } from './login-deps';
import type { EntryMode } from './modes';

/** Spec §4: the sign-in starts 1 s after the puzzle is solved. */
export const AFTER_PUZZLE_DELAY_MS = 1000;
/** Spec §9: login retry delay. */
export const RETRY_DELAY_MS = 1000;

interface LoginValues {
  usr?: string;
  pwd?: string;
  remember?: boolean;
}

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

export function LoginForm({ onMode, deps = appLoginDeps as LoginDeps<unknown>, puzzleAccuracy }: LoginFormProps) {
  const { t } = useTranslation('entry');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [form] = Form.useForm<LoginValues>();
  const [puzzleOpen, setPuzzleOpen] = useState(false);
  const [puzzleKey, setPuzzleKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
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

  const onFinish = (values: LoginValues) => {
    if (busy || blocked) return;
    setProblem(null);
    pending.current = {
      usr: (values.usr ?? '').trim(),
      pwd: (values.pwd ?? '').trim(),
      remember: Boolean(values.remember),
    };
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

  return (
    <>
      <Form<LoginValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        initialValues={{ usr: '', pwd: '', remember: false }}
        disabled={busy}
        size="large"
        aria-label={t('login.title')}
      >
        <Form.Item
          name="usr"
          label={t('login.usr')}
          validateTrigger="onBlur"
          rules={[
            {
              validator: (_, value: unknown) => {
                const p = checkLoginUsr(value);
                return p ? Promise.reject(new Error(t(p.key, { ns: 'rules', ...p.values }))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input
            prefix={<UserOutlined />}
            placeholder={t('login.usrPlaceholder')}
            autoComplete="username"
            maxLength={64}
            data-testid="login-username"
          />
        </Form.Item>
        <Form.Item
          name="pwd"
          label={t('login.pwd')}
          validateTrigger="onBlur"
          rules={[
            {
              validator: (_, value: unknown) => {
                const p = checkLoginPwd(value);
                return p ? Promise.reject(new Error(t(p.key, { ns: 'rules', ...p.values }))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('login.pwdPlaceholder')}
            autoComplete="current-password"
            maxLength={64}
            data-testid="login-password"
          />
        </Form.Item>
        <div className="sw-entry-links" style={{ marginBottom: 16 }}>
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
          </Form.Item>
          <Typography.Link onClick={() => onMode('retrieve')} data-testid="link-retrieve">
            {t('login.forgotPassword')}
          </Typography.Link>
        </div>
        {problem ? (
          <Alert
            type={problem.kind === 'loggingOff' ? 'warning' : 'error'}
            showIcon
            title={problemText}
            data-testid="login-error"
            data-code={problem.kind === 'error' ? problem.view.code : undefined}
            style={{ marginBottom: 16 }}
          />
        ) : null}
        <Button type="primary" htmlType="submit" block loading={busy} disabled={blocked} data-testid="login-submit">
          {busy ? t('login.signingIn') : t('login.submit')}
        </Button>
      </Form>
      <div className="sw-entry-links" style={{ marginTop: 16 }}>
        <Typography.Link onClick={() => onMode('retrieveUser')} data-testid="link-retrieve-user">
          {t('login.forgotAccount')}
        </Typography.Link>
        <span>
          <Typography.Text type="secondary">{t('login.noAccount')} </Typography.Text>
          <Typography.Link onClick={() => onMode('signup')} data-testid="link-signup">
            {t('login.signup')}
          </Typography.Link>
        </span>
      </div>
      <Modal
        open={puzzleOpen}
        title={t('puzzle.title')}
        footer={null}
        centered
        width={PUZZLE_WIDTH + 48}
        onCancel={onPuzzleCancel}
        mask={{ closable: false }}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {t('puzzle.instructions')}
        </Typography.Paragraph>
        <SliderPuzzle key={puzzleKey} accuracy={puzzleAccuracy} onSuccess={onPuzzleSuccess} />
      </Modal>
    </>
  );
}

export default LoginForm;
