import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

const TEXT = { 404: 'page.notFound', 403: 'page.forbidden', 500: 'page.serverError' } as const;

export default function ErrorPage({ code }: { code: 404 | 403 | 500 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="atrium-center">
      <Result
        status={String(code) as '404' | '403' | '500'}
        title={code}
        subTitle={t(TEXT[code])}
        extra={
          <Button type="primary" onClick={() => navigate('/wel/index')}>
            {t('page.goHome')}
          </Button>
        }
      />
    </div>
  );
}
