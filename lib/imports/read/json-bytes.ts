// The bytes that give JSON its structure, for the scanners that find records and keys
// without parsing (json-records.ts, json-shape.ts).

export const NL = 0x0a;
export const CR = 0x0d;
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

export const isSpace = (b: number) => b === 0x20 || b === NL || b === CR || b === 0x09;
