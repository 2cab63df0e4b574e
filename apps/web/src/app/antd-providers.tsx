/**
 * antd's context for the pages that render antd (the area and settings layouts, the status
 * pages): theme (the skin's primary colour), the antd/dayjs locale of the current language and
 * the App instance `notify.ts` shows messages with. The router loads this module lazily
 * (`AntdOutlet`), together with the locale pack, so the entry page never downloads antd.
 */
import { useEffect, type ReactNode } from 'react';
import { App as AntdApp, ConfigProvider } from 'antd';
import { currentLocale } from '../i18n';
import { antdLocale, applyDayjsLocale } from './locale-packs';
import { setMessageInstance } from './notify';
import { skinTheme, useSkin } from './theme';

function MessageBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => {
    setMessageInstance(message);
    return () => setMessageInstance(undefined);
  }, [message]);
  return null;
}

export function AntdProviders({ children }: { children: ReactNode }) {
  const locale = currentLocale();
  const skin = useSkin();
  applyDayjsLocale(locale);
  return (
    <ConfigProvider locale={antdLocale(locale)} theme={skinTheme(skin)}>
      <AntdApp>
        <MessageBridge />
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}

export default AntdProviders;
