import i18n from '../../../i18n';
import { flowWorkTexts } from './messages';

// The texts of 我的事务 and the leave screens, added when one of them is first loaded.
i18n.addResourceBundle('zh', 'translation', { flowWork: flowWorkTexts.zh }, true, false);
i18n.addResourceBundle('en', 'translation', { flowWork: flowWorkTexts.en }, true, false);
