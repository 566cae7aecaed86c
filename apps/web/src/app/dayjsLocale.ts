import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useSettings } from '../stores/settings';

// dayjs follows the console's language. Only the screens after login show dates, so the shell imports this module
// (layout/Layout.tsx) and dayjs stays out of the login page's bundle (docs/web.md "Bundle budget").
const apply = (language: string) => dayjs.locale(language === 'en' ? 'en' : 'zh-cn');
apply(useSettings.getState().language);
useSettings.subscribe((s, old) => {
  if (s.language !== old.language) apply(s.language);
});
