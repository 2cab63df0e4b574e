/**
 * The device-control password prompt (spec §3: one per custom domain). Asked once per page when
 * the server says a password guards the device's writes; kept in memory only, forgotten when
 * a write is refused with it.
 */
import { useRef, useState } from 'react';
import { Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export interface PasswordPrompt {
  /** The password to send: the remembered one, or asked now; undefined when the user cancels. */
  get(required: boolean): Promise<string | undefined | null>;
  forget(): void;
  modal: React.ReactNode;
}

/** `get` resolves to null when no password is needed, undefined when the user cancelled. */
export function usePasswordPrompt(): PasswordPrompt {
  const { t } = useTranslation();
  const remembered = useRef<string | undefined>(undefined);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const resolver = useRef<((v: string | undefined) => void) | undefined>(undefined);
  const finish = (v: string | undefined) => {
    setOpen(false);
    if (v) remembered.current = v;
    resolver.current?.(v);
    resolver.current = undefined;
  };
  return {
    get: (required) => {
      if (!required) return Promise.resolve(null);
      if (remembered.current) return Promise.resolve(remembered.current);
      setText('');
      setOpen(true);
      return new Promise((resolve) => {
        resolver.current = resolve;
      });
    },
    forget: () => {
      remembered.current = undefined;
    },
    modal: (
      <DraggableModal
        open={open}
        title={t('deviceOps:control.pwdTitle')}
        okText={t('deviceOps:common.confirm')}
        cancelText={t('deviceOps:common.cancel')}
        okButtonProps={{ disabled: text === '', 'data-testid': 'ctrl-pwd-ok' }}
        onOk={() => finish(text)}
        onCancel={() => finish(undefined)}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('deviceOps:control.pwdPrompt')}</Typography.Paragraph>
        <Input.Password
          autoFocus
          data-testid="ctrl-pwd"
          value={text}
          placeholder={t('deviceOps:control.pwdPlaceholder')}
          onChange={(e) => setText(e.target.value)}
          onPressEnter={() => text && finish(text)}
        />
      </DraggableModal>
    ),
  };
}
