// tests/browser/asset_path.mjs — the one resolver of FILE:PATH references into assets/, shared by
// page_numbers.test.mjs (the article's measured numbers) and claims.test.mjs (its conclusions).
// PATH walks a JSON file by `/`-separated segments: an object key, an array index, or a filter
// [key=value,key2=value2] that picks the first array element whose fields equal those values
// (numbers compared as numbers). A path must end on a number.

// Splits a path on the slashes outside [ ].
export function segments(path) {
  const parts = [];
  let depth = 0, current = '';
  for (const c of path) {
    if (c === '[') depth++;
    if (c === ']') depth--;
    if (c === '/' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

const matches = (field, wanted) => (typeof field === 'number' ? field === Number(wanted) : String(field) === wanted);

// The value at `path` in `json`; throws naming the first segment that does not resolve.
export function resolve(json, path) {
  let at = json;
  for (const segment of segments(path)) {
    const filter = segment.match(/^\[(.*)\]$/);
    if (filter) {
      if (!Array.isArray(at)) throw new Error(`${segment}: not an array`);
      const pairs = filter[1].split(',').map((pair) => {
        const equals = pair.indexOf('=');
        if (equals < 1) throw new Error(`${segment}: a filter is key=value, key2=value2`);
        return [pair.slice(0, equals), pair.slice(equals + 1)];
      });
      at = at.find((element) => element && pairs.every(([key, value]) => key in element && matches(element[key], value)));
      if (at === undefined) throw new Error(`${segment}: no element matches`);
    } else if (Array.isArray(at) && /^\d+$/.test(segment)) {
      if (Number(segment) >= at.length) throw new Error(`${segment}: past the end of an array of ${at.length}`);
      at = at[Number(segment)];
    } else if (at !== null && typeof at === 'object' && !Array.isArray(at) && Object.hasOwn(at, segment)) {
      at = at[segment];
    } else throw new Error(`${segment}: no such key or index`);
  }
  if (typeof at !== 'number') throw new Error(`resolves to ${JSON.stringify(at)?.slice(0, 40)}, not a number`);
  return at;
}

// Why `text` disagrees with `value` × `scale`, or null when it agrees.
export function disagreement(text, value, scale = 1) {
  const numbers = text.match(/-?\d[\d,]*(?:\.\d+)?/g) ?? [];
  if (numbers.length !== 1) return `"${text}" should hold exactly one number`;
  const written = numbers[0].replaceAll(',', '');
  const decimals = written.includes('.') ? written.split('.')[1].length : 0;
  const expected = (value * scale).toFixed(decimals);
  return Number(written) === Number(expected) ? null : `"${text}" but the measurement rounds to ${expected}`;
}

