import { Form, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deviceApi } from '@atrium/contract';
import { call } from '../../api/call';
import { registerFieldType, type InputProps } from '../../components/crud/fieldTypes';

/**
 * The device dictionary's pickers (docs/devices.md "Device records"): device type (level 1), manufacturer (level 2
 * under the chosen type) and model (level 3 under the chosen manufacturer), each storing the entry's code. A page
 * that shows such fields imports this file (the field-type registry is filled at import time).
 */

type Entry = { id: string; parentId: string; code: string; name: string };

function useEntries(params: Record<string, string> | null) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['device-dict', params, i18n.language],
    queryFn: (): Promise<Entry[]> => call(deviceApi.dictListAll, { query: params ?? {} }),
    enabled: params !== null,
    staleTime: 60_000,
  });
}

const optionsOf = (rows: Entry[] | undefined) =>
  (rows ?? []).map((r) => ({ value: r.code, label: r.code === r.name ? r.name : `${r.name} (${r.code})` }));

function Picker({ p, rows, loading }: { p: InputProps; rows: Entry[] | undefined; loading: boolean }) {
  return (
    <Select
      id={p.id}
      value={p.value as string | undefined}
      onChange={(v) => p.onChange?.(v ?? null)}
      onBlur={p.onBlur}
      disabled={p.disabled}
      placeholder={p.placeholder}
      options={optionsOf(rows)}
      loading={loading}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ minWidth: 160 }}
    />
  );
}

function DeviceTypeInput(p: InputProps) {
  const q = useEntries({ parentId: '0' });
  return <Picker p={p} rows={q.data} loading={q.isLoading} />;
}

/** The form's current device type (search form or record dialog alike). */
function useWatched(name: string): string | undefined {
  const form = Form.useFormInstance();
  return Form.useWatch(name, form) as string | undefined;
}

function ManufacturerInput(p: InputProps) {
  const type = useWatched('deviceType');
  const q = useEntries(type ? { deviceType: type } : null);
  return <Picker p={p} rows={q.data} loading={q.isLoading && !!type} />;
}

function ModelInput(p: InputProps) {
  const type = useWatched('deviceType');
  const maker = useWatched('manufacturer');
  const makers = useEntries(type ? { deviceType: type } : null);
  const makerId = makers.data?.find((m) => m.code === maker)?.id;
  const q = useEntries(makerId ? { parentId: makerId } : null);
  return <Picker p={p} rows={q.data} loading={q.isLoading && !!makerId} />;
}

/**
 * A dictionary entry's name in the current language (`listAll` answers it so), the code on hover; the code itself
 * while nothing is known of it. The cells of a page share the pickers' cached lists: one call for the types, one per
 * type for its manufacturers, never one per row (docs/devices.md "Dictionary names").
 */
function EntryName({ code, rows, pending }: { code: string; rows: Entry[] | undefined; pending: boolean }) {
  const name = rows?.find((r) => r.code === code)?.name;
  return <span title={code}>{name ?? (pending ? '' : code)}</span>;
}

function DeviceTypeName({ code }: { code: string }) {
  const q = useEntries({ parentId: '0' });
  return <EntryName code={code} rows={q.data} pending={q.isPending} />;
}

function ManufacturerName({ code, type }: { code: string; type: string }) {
  const known = /^\d{3}$/.test(type);
  const q = useEntries(known ? { deviceType: type } : null);
  return <EntryName code={code} rows={q.data} pending={known && q.isPending} />;
}

registerFieldType('deviceType', {
  input: DeviceTypeInput,
  text: true,
  cell: (v) => <DeviceTypeName code={String(v)} />,
});
registerFieldType('deviceManufacturer', {
  input: ManufacturerInput,
  text: true,
  cell: (v, { row }) => <ManufacturerName code={String(v)} type={String(row.deviceType ?? '')} />,
});
registerFieldType('deviceModel', { input: ModelInput, text: true });
