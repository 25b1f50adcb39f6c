import { useId, useMemo, type ReactNode } from 'react';
import { Box, Button, Checkbox, FormHelperText, Stack, Typography } from '@mui/material';
import { useCanAccess, useInput, useRecordContext, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router';
import { buildResource } from '../../engine/react/buildResource';
import { SettingsLayout } from '../../layout/SettingsLayout';
import { agencyRoles, declarations } from '../../../core/resources/declarations';
import { PRESETS, privilegeRows, type PrivilegeRow } from '../../../core/resources/roles/privileges';

const ROWS: PrivilegeRow[] = privilegeRows(declarations);

/**
 * Users and roles, both under /appsetting/previlegesetting (issue 35): the users list stays where it was; the
 * agency's own roles are its Roles sub-route. Admins see both links; a consultant, who sees no roles, only the list.
 */
export function PrivilegesLayout({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const { canAccess: rolesVisible } = useCanAccess({ resource: 'agency_roles', action: 'list' });
  const onRoles = pathname.startsWith('/appsetting/previlegesetting/roles');
  const links = [
    { to: '/appsetting/previlegesetting', label: translate('app.privileges.users'), active: !onRoles },
    { to: '/appsetting/previlegesetting/roles', label: translate('app.privileges.roles'), active: onRoles },
  ];
  return (
    <SettingsLayout>
      {rolesVisible && (
        <Box component="nav" aria-label={translate('app.privileges.nav')} sx={{ mb: 1 }}>
          <Stack direction="row" spacing={1}>
            {links.map((l) => (
              <Button
                key={l.to}
                component={Link}
                to={l.to}
                variant={l.active ? 'contained' : 'text'}
                aria-current={l.active ? 'page' : undefined}
              >
                {l.label}
              </Button>
            ))}
          </Stack>
        </Box>
      )}
      {children}
    </SettingsLayout>
  );
}

/**
 * The grid: a row per resource (its name, and a box that ticks or clears the whole row), a column per privilege —
 * List, Show, Create, Edit, Delete, Export where admin has them, then the resource's actions. Each checkbox is named
 * "Resource: privilege" for a screen reader; at 390 px a row's privileges wrap under its name instead of scrolling.
 */
function GridRows({
  granted,
  toggle,
}: {
  granted: ReadonlySet<string>;
  toggle: (keys: string[], on: boolean) => void;
}) {
  return (
    <Box role="list" sx={{ display: 'flex', flexDirection: 'column' }}>
      {ROWS.map((r, i) => {
        const keys = r.privileges.map((p) => p.key);
        const all = keys.every((k) => granted.has(k));
        const some = keys.some((k) => granted.has(k));
        return (
          <Box
            role="listitem"
            key={r.resource}
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              columnGap: 1,
              py: 0.5,
              px: 1,
              bgcolor: i % 2 ? 'action.hover' : undefined,
            }}
          >
            <Box component="label" sx={{ width: { xs: '100%', md: 220 }, fontWeight: 500 }}>
              <Checkbox
                size="small"
                checked={all}
                indeterminate={some && !all}
                onChange={(e) => toggle(keys, e.target.checked)}
                slotProps={{ input: { 'aria-label': `${r.label}: every privilege` } }}
              />
              {r.label}
            </Box>
            {r.privileges.map((p) => (
              <Box component="label" key={p.key} sx={{ whiteSpace: 'nowrap', minWidth: p.crud ? 88 : undefined }}>
                <Checkbox
                  size="small"
                  checked={granted.has(p.key)}
                  onChange={(e) => toggle([p.key], e.target.checked)}
                  slotProps={{ input: { 'aria-label': `${r.label}: ${p.label}` } }}
                />
                {p.label}
              </Box>
            ))}
          </Box>
        );
      })}
    </Box>
  );
}

/**
 * The role's privileges as a grid of resources × privileges: one checkbox each (Tab and Space), a resource's row at
 * once, and presets to start from. Only what admin is declared to do is offered (core/resources/roles/privileges.ts).
 */
function PrivilegeGrid() {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source: 'privileges', defaultValue: [] });
  const granted = useMemo(() => new Set<string>((field.value as string[] | null) ?? []), [field.value]);
  const helpId = useId();
  const toggle = (keys: string[], on: boolean) => {
    const next = new Set(granted);
    for (const k of keys) {
      if (on) next.add(k);
      else next.delete(k);
    }
    field.onChange([...next]);
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, width: '100%' }} aria-describedby={helpId}>
      <Typography component="legend" variant="subtitle1">
        {translate('app.privileges.grid')}
      </Typography>
      <FormHelperText id={helpId} error={!!fieldState.error}>
        {fieldState.error?.message
          ? translate(fieldState.error.message, { _: fieldState.error.message })
          : agencyRoles.fields.find((f) => f.source === 'privileges')!.helperText}
      </FormHelperText>
      <Stack
        direction="row"
        sx={{ flexWrap: 'wrap', gap: 1, my: 1 }}
        role="group"
        aria-label={translate('app.privileges.presets')}
      >
        {PRESETS.map((p) => (
          <Button
            key={p.id}
            variant="outlined"
            size="small"
            onClick={() => field.onChange(p.grants(ROWS, declarations))}
          >
            {translate('app.privileges.preset', { name: p.label })}
          </Button>
        ))}
        <Button variant="outlined" size="small" onClick={() => field.onChange([])}>
          {translate('app.privileges.clear')}
        </Button>
      </Stack>
      <Typography variant="body2" role="status" sx={{ mb: 1 }}>
        {translate('app.privileges.caption', { n: granted.size })}
      </Typography>
      <GridRows granted={granted} toggle={toggle} />
    </Box>
  );
}

/** The show view's privileges: each resource the role grants something of, with what it grants. */
function PrivilegeSummary() {
  const translate = useTranslate();
  const record = useRecordContext<{ privileges?: string[] }>();
  const granted = new Set(record?.privileges ?? []);
  if (granted.size === 0) return <Typography variant="body2">{translate('app.privileges.none')}</Typography>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {ROWS.filter((r) => r.privileges.some((p) => granted.has(p.key))).map((r) => (
        <li key={r.resource}>
          <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
            {r.label}:
          </Typography>{' '}
          <Typography variant="body2" component="span">
            {r.privileges
              .filter((p) => granted.has(p.key))
              .map((p) => p.label)
              .join(', ')}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

export default buildResource(agencyRoles, {
  wrapper: PrivilegesLayout,
  fields: { privileges: { input: <PrivilegeGrid />, field: <PrivilegeSummary /> } },
});
