// SaxonJS ships no type declarations; the tests use its transform only (tests/einvoice.ts).
declare module 'saxon-js' {
  interface TransformOptions {
    stylesheetFileName: string;
    sourceText: string;
    destination: 'serialized';
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'async'): Promise<{ principalResult: unknown }>;
  };
  export default SaxonJS;
}
