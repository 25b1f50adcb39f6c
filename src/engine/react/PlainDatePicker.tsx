import { format, isValid, parseISO } from 'date-fns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';

/** A plain date chosen with the product's date picker (Monday first, yyyy-MM-dd), as the screens keep it. */
export function PlainDatePicker({
  label,
  value,
  onChange,
  helperText,
  error,
}: {
  label: string;
  value: string | null;
  onChange: (date: string | null) => void;
  helperText?: string;
  /** The helper text is a refusal: the field is marked invalid. */
  error?: boolean;
}) {
  const date = value ? parseISO(value) : null;
  return (
    <DatePicker
      label={label}
      value={date}
      format="yyyy-MM-dd"
      onChange={(d) => onChange(d && isValid(d) ? format(d, 'yyyy-MM-dd') : null)}
      slotProps={{ textField: { size: 'small', helperText, error, sx: { width: 230 } } }}
    />
  );
}
