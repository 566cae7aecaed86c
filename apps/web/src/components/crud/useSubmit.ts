import { useState } from 'react';
import { App } from 'antd';

/**
 * The one way a dialog of a CRUD screen sends its work: a spinner on OK while it runs, the success message and
 * `done()` (close, refresh) only on success. A failed call was already shown by the http client; the dialog stays open.
 */
export function useSubmit(): [
  saving: boolean,
  submit: (send: () => Promise<unknown>, success: string, done: () => void | Promise<void>) => Promise<void>,
] {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const submit = async (send: () => Promise<unknown>, success: string, done: () => void | Promise<void>) => {
    setSaving(true);
    try {
      await send();
    } catch {
      return;
    } finally {
      setSaving(false);
    }
    message.success(success);
    await done();
  };
  return [saving, submit];
}
