import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { regionName } from '../../api/region';

const CODE = /^\d{2,12}$/;

/**
 * The `region` kind's cell (docs/web.md "Field types"): the region's name, the code on hover. The names of a page's
 * codes are asked in one call (`regionName` batches them) and cached per code and language, so every list and
 * detail shares them. A code no region has (or a failed call) shows the code itself.
 */
export function RegionName({ code }: { code: string }) {
  const { i18n } = useTranslation();
  const valid = CODE.test(code);
  const q = useQuery({
    queryKey: ['region-name', i18n.language, code],
    queryFn: () => regionName(code),
    enabled: valid,
    staleTime: 30 * 60_000,
    retry: 1,
  });
  const text = !valid || q.isError || q.data === null ? code : (q.data ?? '');
  return (
    <span title={code} data-region-code={code}>
      {text}
    </span>
  );
}
