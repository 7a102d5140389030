/**
 * The layers of src/ (docs/development.md, "The source"), written once: `npm run lint` fails
 * with a rule's name when an import breaks one. Type-only imports count, as does a lazy import().
 */

/** Regular expressions for files at the root of src/ (or deeper, `render/sanitize.ts`). */
const files = (...names) => names.map((name) => `^src/${name.replaceAll('.', '\\.')}$`);

/** For a layer on top of the others: it may use every layer listed before it. */
const everythingBelow = 'every layer listed before it';

/**
 * Lowest first. Each layer imports itself and the layers its `uses` names, nothing else of ours;
 * `rule` is the name a failure shows. A file of src/ in no layer fails `every-file-has-a-layer`.
 */
const layers = {
  protocol: {
    paths: ['^src/protocol/'],
    uses: [],
    rule: 'protocol-imports-only-itself',
    why: 'protocol/ is the spec as code (and what client and sandbox share of an exchange): pure, no I/O',
  },
  text: {
    // The one sanitizer stays in render/, where every renderer finds it, but imports nothing.
    paths: files(
      'whole-number-text.ts',
      'text-lines.ts',
      'not-utf8.ts',
      'closest-name.ts',
      'secret-spellings.ts',
    ).concat(files('render/sanitize.ts')),
    uses: ['protocol'],
    rule: 'text-helpers-import-only-protocol',
    why: 'pure text helpers (numbers in words, lines, UTF-8, the sanitizer) sit under the messages',
  },
  i18n: {
    paths: ['^src/i18n/'],
    uses: ['protocol', 'text'],
    rule: 'i18n-imports-nothing-above-it',
    why: 'the catalogues describe data they are given; a type they need lives with them or below',
  },
  utilities: {
    paths: files(
      'errors.ts',
      'desk-rule-error.ts',
      'durable.ts',
      'lock-file.ts',
      'local-day.ts',
      'interrupts.ts',
      'secrets.ts',
      'sqlite-busy.ts',
      'ledger-location.ts',
      'platform.ts',
      'run-scope.ts',
    ).concat(['^src/errors/']),
    uses: ['protocol', 'text', 'i18n'],
    rule: 'utilities-import-only-i18n-and-below',
    why: 'error classes (errors.ts renders nothing), files written durably, locks, days, secrets: every layer uses them',
  },
  metrics: {
    paths: ['^src/metrics/'],
    uses: ['protocol', 'text', 'i18n', 'utilities'],
    rule: 'metrics-imports-only-utilities',
    why: 'the Prometheus textfile knows figures, not the commands that count them',
  },
  gateway: {
    paths: ['^src/gateway/'],
    uses: ['protocol', 'text', 'i18n', 'utilities'],
    rule: 'gateway-imports-only-protocol-and-utilities',
    why: 'the HTTP client is headless: it says what happened, a command says it to a person',
  },
  ledger: {
    // src/types/: the declarations of pgpass, which only the PostgreSQL backend reads.
    paths: ['^src/ledger/', '^src/types/'],
    uses: ['protocol', 'text', 'i18n', 'utilities'],
    rule: 'ledger-imports-only-protocol-and-utilities',
    why: 'the ledger is given what it needs (a location, a language) and never reads settings or prints',
  },
  settings: {
    paths: ['^src/settings/', '^src/options/'],
    uses: ['protocol', 'text', 'i18n', 'utilities'],
    rule: 'settings-and-options-import-only-protocol-and-utilities',
    why: 'settings and options are declared and parsed here; what they open (ledger, sandbox, gateway) is above',
  },
  sandbox: {
    paths: ['^src/sandbox/'],
    uses: ['protocol', 'text', 'i18n', 'utilities', 'gateway'],
    rule: 'sandbox-never-touches-the-books',
    why: 'the sandbox gateway speaks the protocol; play money never reaches the ledger, settings or commands',
  },
  registry: {
    paths: ['^src/registry/'],
    uses: ['protocol', 'text', 'i18n', 'utilities', 'ledger'],
    rule: 'registry-imports-only-the-ledger-and-below',
    why: "a provider's registry is read and compared with the ledger's payments, headless",
  },
  render: {
    paths: ['^src/render/'],
    uses: ['protocol', 'text', 'i18n', 'utilities', 'ledger', 'registry'],
    rule: 'render-is-pure',
    why: 'renderers build strings from the data they are given: no settings, no terminal, no command',
  },
  terminal: {
    paths: files('output.ts', 'spinner.ts', 'prompts.ts', 'password-source.ts'),
    uses: ['protocol', 'text', 'i18n', 'utilities', 'settings', 'render'],
    rule: 'terminal-imports-only-render-settings-and-below',
    why: 'the files that write to a person or ask one: stdout, stderr, the spinner, the prompts',
  },
  purchase: {
    paths: ['^src/purchase/'],
    uses: ['protocol', 'text', 'i18n', 'utilities', 'gateway', 'ledger', 'settings', 'render', 'terminal'],
    rule: 'purchase-imports-no-command-or-scenario',
    why: 'what commands and scenarios share; it knows neither of them',
  },
  scenario: {
    paths: ['^src/scenario/'],
    uses: ['protocol', 'text', 'i18n', 'utilities', 'gateway', 'ledger', 'settings', 'render', 'terminal', 'purchase'],
    rule: 'scenario-imports-no-command',
    why: 'the scenario runner uses the purchase layer, as commands do, and never a command',
  },
  completion: {
    paths: ['^src/completion/'],
    uses: ['protocol', 'text', 'i18n', 'utilities', 'settings', 'sandbox'],
    rule: 'completion-imports-no-command',
    why: "the shell's Tab reads the tree of commands it is handed; the completion command uses it, not the reverse",
  },
  commands: {
    paths: ['^src/commands/'],
    uses: everythingBelow,
    rule: 'commands-import-no-program',
    why: 'a command is options and an action; cli.ts assembles the commands, main.ts runs them',
  },
  program: {
    paths: files('cli.ts', 'cli-language.ts', 'help-layout.ts'),
    uses: everythingBelow,
    rule: 'program-imports-no-main',
    why: 'the program (commander, help, the commands) is assembled here and run by main.ts',
  },
  main: {
    paths: files('main.ts'),
    // On top: it may import any layer, so it has no rule of its own.
    uses: [],
    rule: undefined,
    why: 'the one error boundary',
  },
};

const everyLayer = Object.values(layers).flatMap((layer) => layer.paths);

const layerNames = Object.keys(layers);
const usedBy = (name) =>
  layers[name].uses === everythingBelow ? layerNames.slice(0, layerNames.indexOf(name)) : layers[name].uses;

const layerRules = Object.entries(layers)
  .filter(([, layer]) => layer.rule !== undefined)
  .map(([name, layer]) => ({
    name: layer.rule,
    comment: layer.why,
    severity: 'error',
    from: { path: layer.paths },
    to: { path: '^src/', pathNot: [...layer.paths, ...usedBy(name).flatMap((used) => layers[used].paths)] },
  }));

/** What may print or prompt: never imported by the gateway or the ledger. */
const talksToAPerson = [...files('output.ts', 'spinner.ts', 'prompts.ts'), 'node_modules/(chalk|enquirer)/'];

const crossRules = [
  {
    name: 'no-circular',
    comment: 'an import circle: move what both need into a file both import, or pass it in',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'every-file-has-a-layer',
    comment: 'a file of src/ outside every layer: add it to one in .dependency-cruiser.js',
    severity: 'error',
    from: { path: '^src/', pathNot: everyLayer },
    to: {},
  },
  {
    name: 'gateway-never-prints',
    comment: 'the gateway says what happened as data or errors; a command prints it',
    severity: 'error',
    from: { path: layers.gateway.paths },
    to: { path: talksToAPerson },
  },
  {
    name: 'ledger-never-prints',
    comment: 'the ledger records and answers; a command prints',
    severity: 'error',
    from: { path: layers.ledger.paths },
    to: { path: talksToAPerson },
  },
  {
    name: 'protocol-and-render-do-no-io',
    comment: "pure layers: no file, network or process module of Node's",
    severity: 'error',
    from: { path: [...layers.protocol.paths, ...layers.render.paths] },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'only-prompts-imports-enquirer',
    comment: 'prompts.ts is the one file that touches enquirer (a cancelled prompt becomes an error there)',
    severity: 'error',
    from: { pathNot: files('prompts.ts') },
    to: { path: 'node_modules/enquirer/' },
  },
  {
    name: 'only-ledger-opens-databases',
    comment:
      "pg and node:sqlite belong to the ledger's backends; the sandbox's state and a registry's scratch tables aside",
    severity: 'error',
    from: { pathNot: ['^src/ledger/', ...files('sandbox/state.ts', 'registry/scratch-database.ts')] },
    to: { path: ['^(node:)?sqlite$', 'node_modules/(pg|pgpass|pg-[a-z-]+)/'] },
  },
  {
    name: 'ledger-backends-stay-inside-ledger',
    comment: 'outside ledger/, only its interface is used (ledger.ts and the files beside it), never a backend',
    severity: 'error',
    from: { pathNot: '^src/ledger/' },
    to: { path: '^src/ledger/(postgres|sqlite|sql)/' },
  },
  {
    name: 'commands-and-scenario-apart',
    comment: 'commands and the scenario runner share purchase/; only the scenario command loads the runner',
    severity: 'error',
    from: { path: '^src/commands/', pathNot: '^src/commands/scenario/' },
    to: { path: '^src/scenario/' },
  },
];

export default {
  forbidden: [...layerRules, ...crossRules],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
