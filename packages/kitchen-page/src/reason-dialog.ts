/**
 * Asks for the reason a rejection or cancellation needs (the API takes 1–200 characters), in the
 * page's <dialog>: resolves with the trimmed reason, or undefined when the cook steps back.
 */
import { byId } from './dom.js';

export function ask(title: string, maxLength: number): Promise<string | undefined> {
  const dialog = byId<HTMLDialogElement>('reason-dialog');
  const form = byId<HTMLFormElement>('reason-form');
  const input = byId<HTMLInputElement>('reason-input');
  const back = byId<HTMLButtonElement>('reason-back');
  byId('reason-title').textContent = title;
  input.value = '';
  input.maxLength = maxLength;
  dialog.showModal();
  input.focus();
  return new Promise((resolve) => {
    const finish = (reason: string | undefined): void => {
      form.removeEventListener('submit', onSubmit);
      back.removeEventListener('click', onBack);
      dialog.removeEventListener('cancel', onBack);
      if (dialog.open) dialog.close();
      resolve(reason);
    };
    const onSubmit = (event: Event): void => {
      event.preventDefault();
      const reason = input.value.trim();
      if (reason !== '') finish(reason);
    };
    const onBack = (event: Event): void => {
      event.preventDefault();
      finish(undefined);
    };
    form.addEventListener('submit', onSubmit);
    back.addEventListener('click', onBack);
    dialog.addEventListener('cancel', onBack);
  });
}
