import { ArrayInput, FunctionField, NumberInput, SimpleFormIterator, useTranslate } from 'react-admin';

/** The rules' unpaid breaks as rows: from a shift length (hours), this many minutes. */
export function BreakRulesInput() {
  return (
    <ArrayInput
      source="break_rules"
      label="resources.client_rules.fields.break_rules"
      helperText="app.rates.break_rules_help"
    >
      <SimpleFormIterator inline disableReordering>
        <NumberInput
          source="min_hours"
          label="app.rates.break_min_hours"
          min={0}
          max={24}
          step={0.5}
          helperText={false}
        />
        <NumberInput
          source="break_minutes"
          label="app.rates.break_minutes"
          min={0}
          max={240}
          step={5}
          helperText={false}
        />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/** "30 min from 6 h; 60 min from 11 h", or "None". */
export function BreakRulesField(props: { label?: string }) {
  const translate = useTranslate();
  return (
    <FunctionField
      source="break_rules"
      label={props.label ?? 'resources.client_rules.fields.break_rules'}
      render={(r: any) =>
        Array.isArray(r?.break_rules) && r.break_rules.length
          ? r.break_rules
              .map((b: any) => translate('app.rates.break_rule', { minutes: b.break_minutes, hours: b.min_hours }))
              .join('; ')
          : translate('app.rates.no_breaks')
      }
    />
  );
}
