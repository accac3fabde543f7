// How PostgreSQL's wide number types come back: as JS numbers, as node:sqlite gives them, so a
// concept file reads `count` or an int8 id the same on both backends. Used by the connections
// of pg_database.ts (its pool and its session connection).

/** postgres.js `types`: int8 and numeric parsed to numbers (ids and counts stay far below 2^53). */
export const numberTypes = {
  int8: {
    to: 20,
    from: [20],
    serialize: (x: unknown) => String(x),
    parse: (x: string) => Number(x),
  },
  numeric: {
    to: 1700,
    from: [1700],
    serialize: (x: unknown) => String(x),
    parse: (x: string) => Number(x),
  },
};
