import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { flowCalls, type ModelRecord } from './common';
import { DeployDialog } from './DeployDialog';

/**
 * 部署 of a model: its category (prefilled from the model) and, for the platform administrator, the tenants to
 * deploy into (none: the platform's own). The answer's new version is shown; a model the deploy check refuses
 * (400 naming the element) stays in the dialog.
 */
export function ModelDeployDialog({
  model,
  onClose,
  onDone,
}: {
  model: ModelRecord;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <DeployDialog
      title={t('flowManage.deployModel', { name: model.name })}
      okText={t('flowManage.deploy')}
      formName="flow-model-deploy"
      category={model.category ?? undefined}
      onClose={onClose}
      send={async ({ category, tenantIds }) => {
        const answer = await flowCalls.modelDeploy({ modelId: model.id, category, tenantIds });
        const version = Math.max(0, ...answer.definitions.map((d) => d.version));
        const n = new Set(answer.definitions.map((d) => d.tenantId)).size;
        void message.success(
          t(n > 1 ? 'flowManage.deployedMany' : 'flowManage.deployed', { name: model.name, version, n }),
        );
        onDone();
      }}
    />
  );
}
