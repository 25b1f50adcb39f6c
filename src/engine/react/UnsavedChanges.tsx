import { useEffect, useRef } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useBlocker, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';

/**
 * Put inside any form: leaving the screen with changes not saved asks first, in the product's own dialog
 * ("Stay" keeps the change, "Leave without saving" goes on). Replaces react-admin's warnWhenUnsavedChanges, which
 * asks with the browser's native confirm. Closing or reloading the tab still gets the browser's own prompt (a page
 * cannot show its own dialog then). A successful save, or a move inside the form's own address, is never blocked.
 */
/**
 * The navigation state of the move a successful save makes (`useRedirect()(path, undefined, undefined, undefined,
 * AFTER_SAVE)`). react-admin runs that redirect inside the save's success, before the form counts itself as
 * submitted, so without this mark the guard would first block the move and only let it go a render later.
 */
export const AFTER_SAVE = { afterSave: true } as const;

export function UnsavedChangesGuard() {
  const translate = useTranslate();
  const { isSubmitSuccessful, dirtyFields } = useFormState();
  const dirty = Object.keys(dirtyFields).length > 0;
  const safe = !dirty || isSubmitSuccessful;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !safe &&
      !(nextLocation.state as { afterSave?: boolean } | null)?.afterSave &&
      !(
        nextLocation.pathname.startsWith(currentLocation.pathname) &&
        !nextLocation.pathname.startsWith(`${currentLocation.pathname}/show`)
      ),
  );

  // Any other redirect made by a save (one without the AFTER_SAVE mark): once the form is safe to leave, it goes on.
  useEffect(() => {
    if (blocker.state === 'blocked' && safe) blocker.proceed();
  }, [blocker, safe]);

  const unloadPrompt = useRef<((e: BeforeUnloadEvent) => void) | null>(null);
  useEffect(() => {
    if (safe) return;
    const beforeunload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = true;
    };
    unloadPrompt.current = beforeunload;
    window.addEventListener('beforeunload', beforeunload);
    return () => window.removeEventListener('beforeunload', beforeunload);
  }, [safe]);
  // Once the user chose to lose the change, the browser's prompt goes at once: the form leaves the page a moment after
  // the move (measured: still registered on the next page), and a page load in that moment met the prompt.
  const leave = () => {
    if (unloadPrompt.current) window.removeEventListener('beforeunload', unloadPrompt.current);
    blocker.proceed?.();
  };

  const open = blocker.state === 'blocked' && !safe;
  return (
    <Dialog
      open={open}
      onClose={() => blocker.reset?.()}
      aria-labelledby="unsaved-changes-title"
      aria-describedby="unsaved-changes-text"
    >
      <DialogTitle id="unsaved-changes-title">{translate('app.unsaved.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="unsaved-changes-text">{translate('app.unsaved.text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()} autoFocus>
          {translate('app.unsaved.stay')}
        </Button>
        <Button color="error" onClick={leave}>
          {translate('app.unsaved.leave')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
