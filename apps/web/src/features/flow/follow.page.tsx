import { FollowScreen } from './manage/FollowScreen';

/** The menu's screen (`/flow/follow/index`, docs/workflow.md "Screens"); built in `manage/`. */
export default FollowScreen;
