import { useEffect, useRef, useState } from 'react';
import { Box, Button, FormHelperText, Stack, Typography } from '@mui/material';
import SignaturePadLib from 'signature_pad';
import { say } from './say';
import { SIGNATURE_MAX_HEIGHT, SIGNATURE_MAX_WIDTH } from '../../../core/domain/timesheets/rules';

/** The drawn signature's largest side on the wire: enough to read, small enough for the 200,000-character limit. */
const MAX_RATIO = 2;

/** Writes a signer's typed name on a canvas in a handwriting face: "Sign with my typed name". */
function writeName(ctx: CanvasRenderingContext2D, name: string, width: number, height: number) {
  ctx.fillStyle = '#0d1b5e';
  ctx.font = `italic ${Math.round(height / 3)}px "Segoe Script", "Brush Script MT", cursive`;
  ctx.textBaseline = 'middle';
  ctx.fillText(name.trim(), 16, height / 2, width - 32);
}

/**
 * The signer's typed name written as their signature, a PNG data URL as the pad gives (600 × 160 on white), or null
 * without a 2D canvas: signing in one click (the client dashboard) with the name they are signed in as.
 */
export function typedSignature(name: string): string | null {
  if (!name.trim()) return null;
  const el = document.createElement('canvas');
  el.width = 600;
  el.height = 160;
  const ctx = el.getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, el.width, el.height);
  writeName(ctx, name, el.width, el.height);
  return el.toDataURL('image/png');
}

/**
 * A drawn signature (signature_pad) as a PNG data URL, or null while the pad is empty. Drawing needs a pointer; from
 * the keyboard, "Sign with my typed name" writes the signer's typed name on the pad in a handwriting face, which is
 * a signature the signer chose to give as much as a drawn one.
 */
export function SignaturePad({
  onChange,
  typedName,
  error,
  label,
}: {
  onChange: (png: string | null) => void;
  /** The signer's name as typed beside the pad, for signing from the keyboard. */
  typedName: string;
  error?: string;
  label?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePadLib | null>(null);
  const [empty, setEmpty] = useState(true);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const el = canvas.current!;
    // Without a 2D canvas (a browser that has none) only the typed signature is offered.
    if (!el.getContext('2d')) return;
    const fit = () => {
      const data = pad.current && !pad.current.isEmpty() ? pad.current.toData() : null;
      // Never more pixels than the server keeps (SIGNATURE_MAX_WIDTH × HEIGHT), even on a wide high-density screen.
      const ratio = Math.min(
        MAX_RATIO,
        Math.max(1, window.devicePixelRatio || 1),
        SIGNATURE_MAX_WIDTH / (el.offsetWidth || 600),
        SIGNATURE_MAX_HEIGHT / (el.offsetHeight || 200),
      );
      el.width = Math.floor(el.offsetWidth * ratio) || 600;
      el.height = Math.floor(el.offsetHeight * ratio) || 200;
      el.getContext('2d')?.scale(ratio, ratio);
      pad.current?.clear();
      if (data) pad.current?.fromData(data);
    };
    pad.current = new SignaturePadLib(el, { penColor: '#0d1b5e', backgroundColor: 'rgb(255,255,255)' });
    fit();
    const ended = () => {
      const p = pad.current!;
      setEmpty(p.isEmpty());
      changed.current(p.isEmpty() ? null : p.toDataURL('image/png'));
    };
    pad.current.addEventListener('endStroke', ended);
    window.addEventListener('resize', fit);
    return () => {
      window.removeEventListener('resize', fit);
      pad.current?.off();
      pad.current = null;
    };
  }, []);

  const clear = () => {
    pad.current?.clear();
    setEmpty(true);
    changed.current(null);
  };
  const typed = () => {
    const el = canvas.current!;
    const ctx = el.getContext('2d');
    if (!ctx) return;
    pad.current?.clear();
    const width = el.offsetWidth || 300;
    const height = el.offsetHeight || 150;
    writeName(ctx, typedName, width, height);
    setEmpty(false);
    changed.current(el.toDataURL('image/png'));
  };

  const id = 'signature-pad-help';
  return (
    <Box>
      <Typography component="p" variant="subtitle2" id="signature-pad-label">
        {label ?? say('signature.label')}
      </Typography>
      <Box
        component="canvas"
        ref={canvas}
        role="img"
        aria-labelledby="signature-pad-label"
        aria-describedby={id}
        data-testid="signature-pad"
        sx={{
          display: 'block',
          width: '100%',
          height: 160,
          border: 1,
          borderColor: error ? 'error.main' : 'divider',
          borderRadius: 1,
          bgcolor: '#fff',
          touchAction: 'none',
          cursor: 'crosshair',
        }}
      />
      <FormHelperText id={id} error={!!error}>
        {error || (empty ? say('signature.help') : say('signature.done'))}
      </FormHelperText>
      <Stack direction="row" spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap' }} useFlexGap>
        <Button size="small" onClick={clear} disabled={empty}>
          {say('signature.clear')}
        </Button>
        <Button size="small" onClick={typed} disabled={!typedName.trim()}>
          {say('signature.typed')}
        </Button>
      </Stack>
    </Box>
  );
}
