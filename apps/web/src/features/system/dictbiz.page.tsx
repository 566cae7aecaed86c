import { dictbiz } from '@atrium/contract/resources/system/dictbiz';
import DictScreen from './DictScreen';

/** 业务字典 (menu path /dict-vertical/index): parent above child. */
export default function DictBizPage() {
  return <DictScreen def={dictbiz} layout="vertical" />;
}
