import { Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** A server menu whose screen is not in this build yet: say so, never a blank page. */
export default function NotAvailable({ name, alias }: { name: string; alias: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Result
      icon={<ToolOutlined />}
      title={t('page.notAvailable')}
      subTitle={t('page.notAvailableHint', { name: i18n.language === 'en' ? alias : name })}
      data-testid="not-available"
    />
  );
}
