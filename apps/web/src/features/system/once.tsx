import { Alert, App, Descriptions, Typography } from 'antd';
import i18n from '../../i18n';

export type ModalApi = ReturnType<typeof App.useApp>['modal'];

/** A secret answered once (client secret, a new tenant's admin password, reset passwords): shown with copy buttons. */
export function showOnce(modal: ModalApi, title: string, entries: [label: string, value: string][]) {
  modal.info({
    title,
    width: 520,
    okText: i18n.t('common.ok'),
    content: (
      <div data-testid="shown-once">
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={i18n.t('system.shownOnce')} />
        <Descriptions
          column={1}
          size="small"
          bordered
          items={entries.map(([label, value], i) => ({
            key: i,
            label,
            children: (
              <Typography.Text copyable code>
                {value}
              </Typography.Text>
            ),
          }))}
        />
      </div>
    ),
  });
}
