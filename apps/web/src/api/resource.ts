import { post } from './http';

export type PutFileResult = { link: string; name: string; originalName: string; attachId: string };
export function putFile(file: File): Promise<PutFileResult> {
  const form = new FormData();
  form.append('file', file);
  return post<PutFileResult>('/api/blade-resource/oss/endpoint/put-file', form);
}
