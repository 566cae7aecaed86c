import { DeployScreen } from './manage/DeployScreen';

/** The menu's screen (`/flow/deploy/index`, docs/workflow.md "Screens"); built in `manage/`. */
export default DeployScreen;
