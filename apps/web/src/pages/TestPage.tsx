import { useState } from 'react';
import { Button, Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export default function TestPage() {
  const { t } = useTranslation();
  const [n, setN] = useState(0);
  return (
    <Card title={t('test.title')}>
      <Typography.Paragraph>{t('test.body')}</Typography.Paragraph>
      <Button onClick={() => setN(n + 1)} data-testid="counter">
        {t('test.counter', { n })}
      </Button>
    </Card>
  );
}
