import { dict } from '@atrium/contract/resources/system/dict';
import DictScreen from './DictScreen';

/** 系统字典 (menu path /dict-horizontal/index): parent and child side by side. */
export default function DictPage() {
  return <DictScreen def={dict} layout="horizontal" />;
}
