import { resourceApi } from '@atrium/contract';
import { call } from './call';

export type PutFileResult = { link: string; name: string; originalName: string; attachId: string };
/** Uploads one file (docs/api.md "Routes in the contract": `resourceApi.putFile`, multipart field "file"). */
export function putFile(file: File): Promise<PutFileResult> {
  const form = new FormData();
  form.append('file', file);
  return call(resourceApi.putFile, { body: form });
}
