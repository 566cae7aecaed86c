import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { topmenu } from '@atrium/contract/resources/system/topmenu';
import CrudPage from '../../components/crud/CrudPage';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import type { CrudSchema, Row } from '../../components/crud/types';
import { grantTopMenu, topGrantTree, topTreeKeys } from '../../api/system';
import GrantDialog from './GrantDialog';

/**
 * 顶部菜单 from its definition, with the row action 菜单配置 (code topmenu_setting): the menus a top menu shows.
 * In English the name is the one the header shows (`topMenus.<code>`, else the name).
 */
export default function TopMenuPage() {
  const { t, i18n } = useTranslation();
  const [granting, setGranting] = useState<Row | null>(null);
  const en = i18n.language === 'en';
  const adjust = useCallback(
    (s: CrudSchema): CrudSchema => ({
      ...s,
      fields: s.fields.map((f) =>
        f.name === 'name' && en
          ? { ...f, render: (v: unknown, r: Row) => t(`topMenus.${String(r.code)}`, { defaultValue: String(v ?? '') }) }
          : f,
      ),
      rowActions: [{ code: 'topmenu_setting', label: 'topmenu.setting', onClick: ([row]) => setGranting(row) }],
    }),
    [en, t],
  );
  const schema = useResourceSchema(topmenu, adjust);
  return (
    <>
      <CrudPage schema={schema} />
      {granting && (
        <GrantDialog
          title={`${t('topmenu.setting')} · ${String(granting.name ?? '')}`}
          queryKey={['topmenu', granting.id]}
          load={async () => {
            const [trees, keys] = await Promise.all([topGrantTree(), topTreeKeys(granting.id)]);
            return [
              {
                key: 'menu',
                label: t('topmenu.setting'),
                tree: trees.menu ?? [],
                keys: keys.menu ?? [],
                strict: true,
              },
            ];
          }}
          save={(ids) => grantTopMenu({ topMenuIds: [granting.id], menuIds: ids.menu ?? [] })}
          onClose={() => setGranting(null)}
        />
      )}
    </>
  );
}
