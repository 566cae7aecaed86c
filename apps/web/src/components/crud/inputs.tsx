import { Button, DatePicker, Input, InputNumber, Select, Space, Switch, TreeSelect, Typography, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { putFile } from '../../api/resource';
import { ICON_NAMES, menuIcon } from '../../layout/icons';
import type { InputProps } from './fieldTypes';
import { DAY_WIRE } from './formats';

/** The controls of the built-in field kinds (kinds.tsx); each takes what Form.Item injects (id, value, onChange). */

const common = ({ id, disabled, placeholder, onBlur }: InputProps) => ({ id, disabled, placeholder, onBlur });

export function TextInput(p: InputProps) {
  return (
    <Input
      {...common(p)}
      value={p.value as string}
      onChange={(e) => p.onChange?.(e.target.value)}
      allowClear={p.search}
    />
  );
}

export function TextAreaInput(p: InputProps) {
  if (p.search) return <TextInput {...p} />;
  // A text that cannot be changed here (a record's view, a read-only field) is read, not a greyed-out box: the text in
  // the page's colour, its lines kept, with a copy button.
  if (p.disabled) return <ReadText id={p.id} value={p.value} />;
  return (
    <Input.TextArea {...common(p)} value={p.value as string} onChange={(e) => p.onChange?.(e.target.value)} rows={4} />
  );
}

/** A long text to read and copy (docs/web.md "Record dialogs"). */
export function ReadText({ id, value }: { id?: string; value: unknown }) {
  const text = value === null || value === undefined ? '' : String(value);
  return (
    <div id={id} className="atrium-read-text" data-testid="read-text">
      {text ? (
        <Typography.Paragraph
          copyable={{ text }}
          style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
        >
          {text}
        </Typography.Paragraph>
      ) : (
        <Typography.Text type="secondary">—</Typography.Text>
      )}
    </div>
  );
}

export function SecretInput(p: InputProps) {
  return (
    <Input.Password
      {...common(p)}
      value={p.value as string}
      onChange={(e) => p.onChange?.(e.target.value)}
      autoComplete="new-password"
    />
  );
}

const precisionOf = (p: InputProps) => (p.f.kind === 'decimal' ? p.f.scale : p.f.kind === 'int' ? 0 : undefined);

export function NumberInput(p: InputProps) {
  return (
    <InputNumber
      {...common(p)}
      value={p.value as number}
      onChange={p.onChange}
      min={p.f.min}
      max={p.f.max}
      precision={precisionOf(p)}
      style={{ width: '100%', minWidth: p.search ? 120 : undefined }}
    />
  );
}

/** Search: two numbers, either may be left empty (`<name>_gte` / `<name>_lte`). */
export function NumberRangeInput(p: InputProps) {
  const { t } = useTranslation();
  const [from, to] = Array.isArray(p.value) ? (p.value as (number | null)[]) : [null, null];
  return (
    <Space.Compact>
      <InputNumber
        id={p.id}
        value={from}
        placeholder={t('crud.rangeFrom')}
        precision={precisionOf(p)}
        onChange={(v) => p.onChange?.([v, to])}
        style={{ width: 110 }}
      />
      <InputNumber
        value={to}
        placeholder={t('crud.rangeTo')}
        precision={precisionOf(p)}
        onChange={(v) => p.onChange?.([from, v])}
        style={{ width: 110 }}
      />
    </Space.Compact>
  );
}

export function SwitchInput(p: InputProps) {
  const { t } = useTranslation();
  if (p.search) {
    return (
      <Select
        {...common(p)}
        value={p.value}
        onChange={p.onChange}
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
      id={p.id}
      disabled={p.disabled}
      checked={p.value === 1 || p.value === '1' || p.value === true}
      onChange={(c) => p.onChange?.(c ? 1 : 0)}
      checkedChildren={t('common.yes')}
      unCheckedChildren={t('common.no')}
    />
  );
}

const dayOnly = (p: InputProps) => p.f.kind === 'date' || (p.f.type === 'date' && !!p.f.dateOnly);

export function DateInput(p: InputProps) {
  const day = dayOnly(p);
  return (
    <DatePicker
      {...common(p)}
      showTime={!day}
      value={p.value ? dayjs(p.value as string) : null}
      style={{ width: '100%' }}
      onChange={(d) => p.onChange?.(d ? (day ? d.format(DAY_WIRE) : d.format()) : null)}
    />
  );
}

/** Search: a from–to picker; a calendar day range names its first and last day, both included. */
export function DateRangeInput(p: InputProps) {
  const day = dayOnly(p);
  const [from, to] = Array.isArray(p.value) ? (p.value as (string | null)[]) : [null, null];
  return (
    <DatePicker.RangePicker
      id={p.id}
      showTime={!day}
      allowEmpty={[true, true]}
      value={[from ? dayjs(from) : null, to ? dayjs(to) : null]}
      onChange={(v) => {
        const [a, b] = (v ?? [null, null]) as [Dayjs | null, Dayjs | null];
        p.onChange?.(
          a || b
            ? [a ? (day ? a.format(DAY_WIRE) : a.format()) : null, b ? (day ? b.format(DAY_WIRE) : b.format()) : null]
            : undefined,
        );
      }}
    />
  );
}

/** Options (dictionary, URL, inline) as a select, or tree nodes as a tree select; 'in' searches pick several. */
export function ChoiceInput(p: InputProps) {
  const multiple = p.f.multiple || (p.search && p.f.search === 'in');
  if (p.f.treeUrl) {
    return (
      <TreeSelect
        {...common(p)}
        value={p.value}
        onChange={p.onChange}
        treeData={p.tree}
        multiple={multiple}
        treeCheckable={multiple}
        showCheckedStrategy={TreeSelect.SHOW_ALL}
        allowClear
        showSearch
        treeNodeFilterProp="title"
        style={{ minWidth: 180 }}
        styles={{ popup: { root: { maxHeight: 400, overflow: 'auto' } } }}
      />
    );
  }
  return (
    <Select
      {...common(p)}
      value={p.value}
      onChange={p.onChange}
      options={p.options}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ minWidth: 160 }}
    />
  );
}

const iconOptions = ICON_NAMES.map((name) => ({
  value: name,
  label: (
    <Space size={6}>
      {menuIcon(name)}
      {name}
    </Space>
  ),
}));

export function IconInput(p: InputProps) {
  return (
    <Select
      {...common(p)}
      value={p.value}
      onChange={p.onChange}
      options={iconOptions}
      allowClear
      showSearch={{ optionFilterProp: 'value' }}
      style={{ minWidth: 200 }}
    />
  );
}

/** A file's link: typed, or filled by uploading through the attachment endpoint (the avatar's call). */
export function UploadInput(p: InputProps) {
  const { t } = useTranslation();
  if (p.search) return <TextInput {...p} />;
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input {...common(p)} value={p.value as string} onChange={(e) => p.onChange?.(e.target.value)} />
      <Upload
        accept={p.f.accept}
        showUploadList={false}
        disabled={p.disabled}
        customRequest={async ({ file, onSuccess, onError }) => {
          try {
            const res = await putFile(file as File);
            p.onChange?.(res.link);
            onSuccess?.(res);
          } catch (e) {
            // The http client already showed the server's message.
            onError?.(e as Error);
          }
        }}
      >
        <Button icon={<UploadOutlined />} disabled={p.disabled}>
          {t('crud.upload')}
        </Button>
      </Upload>
    </Space.Compact>
  );
}
