import { configtemplate } from '@atrium/contract/resources/device/configtemplate';
import ResourcePage from '../../components/crud/ResourcePage';
import './fields';

/** 配置模板: the definition's screen, with the device dictionary's type and manufacturer pickers. */
export default function ConfigTemplatePage() {
  return <ResourcePage def={configtemplate} />;
}
