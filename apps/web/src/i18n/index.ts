import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, website } from '@atrium/contract';
import zh from './zh';
import en from './en';

function storedLanguage(): string {
  try {
    const raw = localStorage.getItem(`${website.keyPrefix}language`);
    return raw ? (JSON.parse(raw).content as string) : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

void i18n.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: en } },
  lng: storedLanguage(),
  fallbackLng: 'zh',
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

export default i18n;
