import { useState } from 'react';
import { Result, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isValidUrl } from '@atrium/contract';
import { frameOrigins } from '../api/system';
import { useMenu } from '../stores/menu';
import { flatten } from '../stores/menuRoutes';

/** The origin of an absolute http(s) address, or null. */
export function originOf(src: string): string | null {
  try {
    const u = new URL(src.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether the console frames this address (docs/web.md "Framed pages"): its origin is the console's own or one the
 * platform parameter `frame.allowedOrigins` lists.
 */
export function frameAllowed(src: string, allowed: readonly string[], own = window.location.origin): boolean {
  const origin = originOf(src);
  return origin !== null && (origin === own || allowed.includes(origin));
}

/**
 * /myiframe/:routerPath embeds the external page of that menu (or ?src=), with a loading state — only from an origin
 * the platform allows; any other address gets a refusal instead of the frame (a link must not dress a foreign page
 * in the console's chrome).
 */
export default function MyIframe() {
  const { t } = useTranslation();
  const { routerPath = '' } = useParams();
  const [params] = useSearchParams();
  const menus = useMenu((s) => s.allMenus);
  const [loading, setLoading] = useState(true);
  const allowed = useQuery({ queryKey: ['frame-origins'], queryFn: frameOrigins, staleTime: 60_000 });
  const src = flatten(menus).find((m) => m.code === routerPath)?.source ?? params.get('src') ?? '';
  if (!isValidUrl(src)) return <Result status="404" subTitle={t('page.notFound')} />;
  if (allowed.isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  // The list unread (an error) refuses like an address not on it: the console never frames on a guess.
  if (!frameAllowed(src, allowed.data?.origins ?? []))
    return (
      <Result
        status="403"
        title={t('page.frameRefusedTitle')}
        subTitle={t('page.frameRefused', { origin: originOf(src) ?? src })}
      />
    );
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
