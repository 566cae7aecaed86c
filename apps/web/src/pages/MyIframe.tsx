import { useState } from 'react';
import { Result, Spin } from 'antd';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isValidUrl } from '@atrium/contract';
import { useMenu } from '../stores/menu';
import { flatten } from '../stores/menuRoutes';

/** /myiframe/:routerPath embeds the external page of that menu (or ?src=), with a loading state. */
export default function MyIframe() {
  const { t } = useTranslation();
  const { routerPath = '' } = useParams();
  const [params] = useSearchParams();
  const menus = useMenu((s) => s.allMenus);
  const [loading, setLoading] = useState(true);
  const src = flatten(menus).find((m) => m.code === routerPath)?.source ?? params.get('src') ?? '';
  if (!isValidUrl(src)) return <Result status="404" subTitle={t('page.notFound')} />;
  return (
    <Spin spinning={loading} style={{ height: '100%' }}>
      <iframe
        title={routerPath}
        src={src}
        onLoad={() => setLoading(false)}
        style={{ border: 0, width: '100%', height: 'calc(100vh - 140px)' }}
      />
    </Spin>
  );
}
