import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { role } from '@atrium/contract/resources/system/role';
import CrudPage from '../../components/crud/CrudPage';
import { useResourceSchema } from '../../components/crud/ResourcePage';
import type { CrudSchema, Row } from '../../components/crud/types';
import { grantRole, menuGrantTree, roleTreeKeys } from '../../api/system';
import GrantDialog from './GrantDialog';

const input = (name: string) => `role:actions.grant.input.${name}.label`;

/**
 * 角色管理 from its definition; its action 权限设置 (`grant`) opens checkable trees of menus, data scopes and API
 * scopes, pre-checked with what the role holds when one role is picked.
 */
export default function RolePage() {
  const { t } = useTranslation();
  const [granting, setGranting] = useState<{ rows: Row[] } | null>(null);
  const adjust = useCallback(
    (s: CrudSchema): CrudSchema => ({
      ...s,
      lifecycle: s.lifecycle?.map((a) =>
        a.name === 'grant' ? { ...a, open: (rows: Row[]) => setGranting({ rows }) } : a,
      ),
    }),
    [],
  );
  const schema = useResourceSchema(role, adjust);
  const rows = granting?.rows ?? [];
  const one = rows.length === 1 ? rows[0] : undefined;
  return (
    <>
      <CrudPage schema={schema} />
      {granting && (
        <GrantDialog
          title={`${t('role:actions.grant.label')} · ${rows.map((r) => String(r.roleName ?? '')).join(', ')}`}
          queryKey={['role', ...rows.map((r) => r.id)]}
          load={async () => {
            const [trees, keys] = await Promise.all([
              menuGrantTree(),
              one ? roleTreeKeys(one.id) : Promise.resolve({ menu: [], dataScope: [], apiScope: [] }),
            ]);
            return [
              { key: 'menu', label: t(input('menuIds')), tree: trees.menu ?? [], keys: keys.menu ?? [] },
              {
                key: 'dataScope',
                label: t(input('dataScopeIds')),
                tree: trees.dataScope ?? [],
                keys: keys.dataScope ?? [],
              },
              {
                key: 'apiScope',
                label: t(input('apiScopeIds')),
                tree: trees.apiScope ?? [],
                keys: keys.apiScope ?? [],
              },
            ];
          }}
          save={(ids) =>
            grantRole({
              roleIds: rows.map((r) => r.id),
              menuIds: ids.menu ?? [],
              dataScopeIds: ids.dataScope ?? [],
              apiScopeIds: ids.apiScope ?? [],
            })
          }
          onClose={() => setGranting(null)}
        />
      )}
    </>
  );
}
