/** English labels generated from the resource declarations (resources.<name>.name / .fields.<source>). */
export const resourceMessages: Record<string, unknown> = {};
