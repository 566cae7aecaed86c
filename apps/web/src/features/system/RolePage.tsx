import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import CrudPage from '../../components/crud/CrudPage';
import type { CrudField, CrudSchema, Row } from '../../components/crud/types';
import { grantRole, menuGrantTree, roleTreeKeys } from '../../api/system';
import GrantDialog from './GrantDialog';

const fields: CrudField[] = [
  { name: 'roleName', label: 'role.roleName', required: true, search: true },
  { name: 'roleAlias', label: 'role.roleAlias', required: true, search: true },
  {
    name: 'parentId',
    label: 'role.parentId',
    type: 'tree',
    treeUrl: '/api/blade-system/role/tree',
    root: '0',
    column: false,
  },
  { name: 'sort', label: 'role.sort', type: 'number', default: 0, width: 80 },
];

/** 角色管理, with 权限设置: menus, data scopes and API scopes granted to a role. */
export default function RolePage() {
  const { t } = useTranslation();
  const [granting, setGranting] = useState<Row | null>(null);
  const schema = useMemo<CrudSchema>(
    () => ({
      base: '/api/blade-system/role',
      title: 'role.title',
      codes: { add: 'role_add', edit: 'role_edit', delete: 'role_delete', view: 'role_view' },
      fields,
      rowActions: [{ code: 'role_grant', label: 'role.grant', onClick: ([row]) => setGranting(row) }],
    }),
    [],
  );
  return (
    <>
      <CrudPage schema={schema} />
      {granting && (
        <GrantDialog
          title={`${t('role.grant')} · ${String(granting.roleName ?? '')}`}
          queryKey={['role', granting.id]}
          load={async () => {
            const [trees, keys] = await Promise.all([menuGrantTree(), roleTreeKeys(granting.id)]);
            return [
              { key: 'menu', label: t('role.menuTab'), tree: trees.menu ?? [], keys: keys.menu ?? [] },
              { key: 'dataScope', label: t('role.dataTab'), tree: trees.dataScope ?? [], keys: keys.dataScope ?? [] },
              { key: 'apiScope', label: t('role.apiTab'), tree: trees.apiScope ?? [], keys: keys.apiScope ?? [] },
            ];
          }}
          save={(ids) =>
            grantRole({
              roleIds: [granting.id],
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
