import type { ReactNode } from 'react';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudDialog } from './CrudDialog';
import { CrudSearch } from './CrudSearch';
import { CrudTable } from './CrudTable';
import { CrudToolbar } from './CrudToolbar';
import { useCrudController } from './useCrudController';
import type { CrudSchema, Row } from './types';

/**
 * The one CRUD screen (docs/product.md "Screens and routes" "Generic CRUD list screens", "Messages and errors" messages, "Constants" page sizes): search, add / view /
 * edit / delete, multi-select delete, paging, or a (lazy) tree table; options from dictionaries, URLs and trees;
 * buttons and row actions by the user's permission codes; server field errors on their fields; a stale edit (409)
 * offers to reload. It composes the controller and the views; a screen needing another layout composes them itself.
 * `params` are fixed filters (e.g. the department picked beside the user table).
 */
export default function CrudPage<R extends Row = Row>({
  schema,
  params,
  extra,
}: {
  schema: CrudSchema<R>;
  params?: Record<string, unknown>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const c = useCrudController(schema, params);
  return (
    <Card title={t(schema.title)} data-testid="crud-page" extra={extra}>
      <CrudSearch c={c} />
      <CrudToolbar c={c} />
      <CrudTable c={c} />
      <CrudDialog c={c} />
    </Card>
  );
}
