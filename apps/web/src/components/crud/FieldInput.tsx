import { DatePicker, Input, InputNumber, Select, Space, Switch, TreeSelect } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ICON_NAMES, menuIcon } from '../../layout/icons';
import type { CrudField, Option, TreeNode } from './types';

/** Display formats. What is sent is ISO 8601 with the browser's offset, so the server never guesses the zone. */
export const DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DAY_FORMAT = 'YYYY-MM-DD';

const iconOptions = ICON_NAMES.map((name) => ({
  value: name,
  label: (
    <Space size={6}>
      {menuIcon(name)}
      {name}
    </Space>
  ),
}));

type Props = {
  f: CrudField;
  disabled?: boolean;
  options?: Option[];
  tree?: TreeNode[];
  /** In the search form: a yes/no select instead of a switch, a single line instead of a textarea. */
  search?: boolean;
  value?: unknown;
  onChange?: (v: unknown) => void;
  onBlur?: () => void;
  id?: string;
};

/** The control of a field; Form.Item injects id, value and onChange. */
export default function FieldInput({ f, disabled, options, tree, search, value, onChange, onBlur, id }: Props) {
  const { t } = useTranslation();
  // Placeholders are hints for entering a record, not for searching.
  const placeholder = f.placeholder && !search ? t(f.placeholder) : undefined;
  const common = { id, disabled, placeholder, onBlur };
  switch (search && f.type === 'textarea' ? 'text' : f.type) {
    case 'number':
      return <InputNumber {...common} value={value as number} onChange={onChange} style={{ width: '100%' }} />;
    case 'textarea':
      return (
        <Input.TextArea {...common} value={value as string} onChange={(e) => onChange?.(e.target.value)} rows={4} />
      );
    case 'password':
      return (
        <Input.Password
          {...common}
          value={value as string}
          onChange={(e) => onChange?.(e.target.value)}
          autoComplete="new-password"
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          value={value}
          onChange={onChange}
          options={options}
          mode={f.multiple ? 'multiple' : undefined}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 160 }}
        />
      );
    case 'tree':
      return (
        <TreeSelect
          {...common}
          value={value}
          onChange={onChange}
          treeData={tree}
          multiple={f.multiple}
          treeCheckable={f.multiple}
          showCheckedStrategy={TreeSelect.SHOW_ALL}
          allowClear
          showSearch
          treeNodeFilterProp="title"
          style={{ minWidth: 180 }}
          styles={{ popup: { root: { maxHeight: 400, overflow: 'auto' } } }}
        />
      );
    case 'switch':
      if (search) {
        return (
          <Select
            {...common}
            value={value}
            onChange={onChange}
            allowClear
            style={{ minWidth: 100 }}
            options={[
              { value: 0, label: t('common.no') },
              { value: 1, label: t('common.yes') },
            ]}
          />
        );
      }
      return (
        <Switch
          id={id}
          disabled={disabled}
          checked={value === 1 || value === '1' || value === true}
          onChange={(c) => onChange?.(c ? 1 : 0)}
          checkedChildren={t('common.yes')}
          unCheckedChildren={t('common.no')}
        />
      );
    case 'date':
      return (
        <DatePicker
          {...common}
          showTime={!f.dateOnly}
          value={value ? dayjs(value as string) : null}
          style={{ width: '100%' }}
          onChange={(d) => onChange?.(d ? (f.dateOnly ? d.startOf('day') : d).format() : null)}
        />
      );
    case 'icon':
      return (
        <Select
          {...common}
          value={value}
          onChange={onChange}
          options={iconOptions}
          allowClear
          showSearch={{ optionFilterProp: 'value' }}
          style={{ minWidth: 200 }}
        />
      );
    default:
      return (
        <Input {...common} value={value as string} onChange={(e) => onChange?.(e.target.value)} allowClear={search} />
      );
  }
}
