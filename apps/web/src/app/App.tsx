import { useEffect } from 'react';
import { ConfigProvider } from 'antd';
// The ES modules antd itself imports (antd/locale/* are CommonJS copies: both would be bundled).
import zhCN from 'antd/es/locale/zh_CN';
import enUS from 'antd/es/locale/en_US';
import { RouterProvider } from 'react-router/dom';
import i18n from '../i18n';
import { useSettings } from '../stores/settings';
import { antdConfig, applyTheme } from '../theme/themes';
import { installErrorHandlers } from '../stores/errorLog';
import { router } from './router';
import EmptyState from '../components/EmptyState';

/** Every antd component's empty state is the console's one (docs/web.md "Empty states"). */
const renderEmpty = () => <EmptyState />;

export default function App() {
  const { language, theme, colour } = useSettings();
  useEffect(() => {
    installErrorHandlers();
  }, []);
  useEffect(() => {
    void i18n.changeLanguage(language);
    document.documentElement.lang = language === 'en' ? 'en' : 'zh-CN';
  }, [language]);
  useEffect(() => applyTheme(theme), [theme]);
  return (
    <ConfigProvider
      locale={language === 'en' ? enUS : zhCN}
      theme={antdConfig(theme, colour)}
      renderEmpty={renderEmpty}
    >
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}
