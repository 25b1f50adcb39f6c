import { declarationMessages, engineMessages } from '../engine/messages';
import { declarations } from './declarations';

/** English labels generated from the resource declarations (resources.<name>.name / .fields.<source>) and the engine's texts. */
export const resourceMessages: Record<string, unknown> = { ...engineMessages, ...declarationMessages(declarations) };
