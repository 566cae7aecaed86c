import { useEffect } from 'react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { RouterProvider } from 'react-router/dom';
import i18n from '../i18n';
import { useSettings } from '../stores/settings';
import { antdConfig, applyTheme } from '../theme/themes';
import { installErrorHandlers } from '../stores/errorLog';
import { router } from './router';

export default function App() {
  const { language, theme, colour } = useSettings();
  useEffect(() => {
    installErrorHandlers();
  }, []);
  useEffect(() => {
    void i18n.changeLanguage(language);
    dayjs.locale(language === 'en' ? 'en' : 'zh-cn');
    document.documentElement.lang = language === 'en' ? 'en' : 'zh-CN';
  }, [language]);
  useEffect(() => applyTheme(theme), [theme]);
  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCN} theme={antdConfig(theme, colour)}>
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}
