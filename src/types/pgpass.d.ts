// pgpass ships no types: the one call agentpay makes (node_modules/pgpass/lib/index.js).
declare module 'pgpass' {
  /** Looks the password up in PGPASSFILE or ~/.pgpass (ignored when others may read it, as libpq does). */
  function pgPass(
    connection: { host: string; port: number; database: string; user: string },
    callback: (password: string | undefined) => void,
  ): void;
  export default pgPass;
}
