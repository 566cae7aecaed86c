import { ModelScreen } from './manage/ModelScreen';

/** The menu's screen (`/flow/model/index`, docs/workflow.md "Screens"); built in `manage/`. */
export default ModelScreen;
