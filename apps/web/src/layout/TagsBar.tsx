import { useCallback, useEffect, useRef, useState } from 'react';
import { CloseOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { clearCache } from '../api/auth';
import { useTags } from '../stores/tags';
import type { Tag } from '../stores/tagRules';
import { useCache } from './useCache';
import { useMenu } from '../stores/menu';
import { flatten } from '../stores/menuRoutes';
import { menuLabel } from './Sidebar';
import { revealScroll } from './tagScroll';

/** Margin kept beside the active tag when it is scrolled into view. */
const REVEAL_PAD = 24;
/** An arrow scrolls by this share of the visible width. */
const STEP = 0.8;

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
  const scroller = useRef<HTMLDivElement>(null);
  const [can, setCan] = useState({ left: false, right: false });

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const left = el.scrollLeft > 0;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setCan((c) => (c.left === left && c.right === right ? c : { left, right }));
  }, []);
  // The active tag is always brought into view: opened from the sidebar, switched to, after a reload, and when
  // the bar changes width (a resized window, the arrows appearing).
  const reveal = useCallback(() => {
    const el = scroller.current;
    const tag = el?.querySelector<HTMLElement>('.atrium-tag.active');
    if (el && tag)
      el.scrollLeft = revealScroll(el.scrollLeft, el.clientWidth, tag.offsetLeft, tag.offsetWidth, REVEAL_PAD);
    measure();
  }, [measure]);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(reveal);
    observer.observe(el);
    return () => observer.disconnect();
  }, [reveal]);
  useEffect(reveal, [current, tags, reveal]);
  const scrollBy = (dir: 1 | -1) => {
    const el = scroller.current;
    if (el) el.scrollBy({ left: dir * el.clientWidth * STEP, behavior: 'smooth' });
  };

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
      <div className="atrium-tags-bar" data-testid="tags-bar">
        {(can.left || can.right) && (
          <Button
            type="text"
            size="small"
            icon={<LeftOutlined />}
            disabled={!can.left}
            aria-label={t('tags.scrollLeft')}
            onClick={() => scrollBy(-1)}
            data-testid="tags-left"
          />
        )}
        <div
          className="atrium-tags"
          ref={scroller}
          onScroll={measure}
          onWheel={(e) => {
            // A mouse wheel scrolls vertically; the bar only scrolls sideways.
            if (scroller.current && Math.abs(e.deltaY) > Math.abs(e.deltaX)) scroller.current.scrollLeft += e.deltaY;
          }}
        >
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
        {(can.left || can.right) && (
          <Button
            type="text"
            size="small"
            icon={<RightOutlined />}
            disabled={!can.right}
            aria-label={t('tags.scrollRight')}
            onClick={() => scrollBy(1)}
            data-testid="tags-right"
          />
        )}
      </div>
    </Dropdown>
  );
}
