// The declaration's problems as react-admin's forms show them, next to the field.
import type { ResourceDeclaration } from '../../../core/engine/types';
import { validateRecord, type CustomFieldDefinition, type Problems } from '../../../core/engine/validate';
import { getPath } from '../../../core/engine/validate';
import { isActionOnly } from '../../../core/engine/lifecycle';

/** Problems → the nested `{ field: { message, args } }` shape react-admin's form resolver expects. */
export function toFormErrors(problems: Problems): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [path, p] of Object.entries(problems)) {
    const keys = path.split('.');
    let node = out;
    keys.slice(0, -1).forEach((k) => (node = node[k] ??= {}));
    node[keys[keys.length - 1]] = { message: p.message, args: p.args ?? {} };
  }
  return out;
}

/**
 * The form's own checks: the fields it offers an input for. What the server fills or changes only through actions
 * (a new document's check status) is not in a create form's values, and an error there would block the save with
 * nothing on screen; the server checks those itself.
 */
export const formValidator = (decl: ResourceDeclaration, defs: CustomFieldDefinition[]) => {
  const writable = { ...decl, fields: decl.fields.filter((f) => !f.readOnly && !isActionOnly(decl, f) && !f.computed) };
  return (values: Record<string, any>) =>
    toFormErrors(onAddressParts(decl, values, validateRecord(writable, values, defs)));
};

/**
 * An address's problems belong to its parts, where the form shows them: a missing first line or postcode on that
 * input, a malformed postcode on the postcode. Other problems stay on the address as a whole.
 */
export function onAddressParts(decl: ResourceDeclaration, values: Record<string, any>, problems: Problems): Problems {
  const out = { ...problems };
  for (const f of decl.fields.filter((x) => x.type === 'address' && out[x.source])) {
    const p = out[f.source];
    const a = getPath(values, f.source);
    const part = (k: string) => (a && typeof a === 'object' ? (a as Record<string, unknown>)[k] : undefined);
    const blank = (k: string) => {
      const v = part(k);
      return typeof v !== 'string' || v.trim() === '';
    };
    if (p.message === 'engine.validation.addressRequired') {
      delete out[f.source];
      for (const k of ['line1', 'postcode'])
        if (blank(k)) out[`${f.source}.${k}`] = { message: 'ra.validation.required' };
    } else if (p.message === 'engine.validation.postcode') {
      delete out[f.source];
      out[`${f.source}.postcode`] = p;
    } else if (typeof p.args?.part === 'string') {
      delete out[f.source];
      out[`${f.source}.${p.args.part}`] = p;
    }
  }
  return out;
}
