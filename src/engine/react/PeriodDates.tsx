import { useTranslate } from 'react-admin';
import { DatePickerProvider } from './DatePickerInput';
import { PlainDatePicker } from './PlainDatePicker';

/**
 * A custom period's first and last days, kept in the address (`from`, `to`): the reports' parameters and the
 * dashboard's period alike. A cleared day keeps the one before.
 */
export function PeriodDates({
  params,
  set,
}: {
  params: URLSearchParams;
  set: (changes: Record<string, string | null>) => void;
}) {
  const translate = useTranslate();
  return (
    <DatePickerProvider>
      <PlainDatePicker
        label={translate('app.report.from')}
        value={params.get('from')}
        onChange={(d) => d && set({ from: d })}
      />
      <PlainDatePicker
        label={translate('app.report.to')}
        value={params.get('to')}
        onChange={(d) => d && set({ to: d })}
      />
    </DatePickerProvider>
  );
}
