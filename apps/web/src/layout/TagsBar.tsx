import { CloseOutlined } from '@ant-design/icons';
import { App, Dropdown } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { clearCache } from '../api/auth';
import { useTags } from '../stores/tags';
import type { Tag } from '../stores/tagRules';
import { useCache } from './useCache';
import { useMenu } from '../stores/menu';
import { flatten } from '../stores/menuRoutes';
import { menuLabel } from './Sidebar';

export const tagLabel = (tag: Tag, t: (k: string) => string) => (tag.i18n ? t(tag.i18n) : tag.label);

export default function TagsBar() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const menus = flatten(useMenu((s) => s.allMenus));
  const label = (tag: Tag) => {
    const m = menus.find((x) => x.path === tag.value.split('?')[0]);
    return m ? menuLabel(m, i18n.language) : tagLabel(tag, t);
  };
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const current = pathname + search;
  const { tags, close, closeOthers, closeAll } = useTags();
  const refresh = useCache((s) => s.refresh);

  const onClose = (value: string) => {
    const next = close(value);
    if (value === current) navigate(next);
  };
  const menu = {
    items: [
      { key: 'refresh', label: t('tags.refresh') },
      { key: 'clearCache', label: t('tags.clearCache') },
      { key: 'closeOthers', label: t('tags.closeOthers') },
      { key: 'closeAll', label: t('tags.closeAll') },
    ],
    onClick: async ({ key }: { key: string }) => {
      if (key === 'refresh') refresh(current);
      if (key === 'closeOthers') closeOthers();
      if (key === 'closeAll') {
        closeAll();
        navigate('/wel/index');
      }
      if (key === 'clearCache') {
        await clearCache();
        message.success(t('tags.cleared'));
      }
    },
  };

  return (
    <Dropdown menu={menu} trigger={['contextMenu']}>
      <div className="atrium-tags" data-testid="tags-bar">
        {tags.map((tag) => (
          <span
            key={tag.value}
            data-tag={tag.value}
            className={`atrium-tag${tag.value === current ? ' active' : ''}`}
            onClick={() => navigate(tag.value)}
          >
            {label(tag)}
            {tag.close !== false && tags.length > 1 && (
              <CloseOutlined
                className="atrium-tag-close"
                aria-label="close"
                onClick={(e) => {
                  e.stopPropagation();
                  onClose(tag.value);
                }}
              />
            )}
          </span>
        ))}
      </div>
    </Dropdown>
  );
}
