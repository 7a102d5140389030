import type { AmountNotation } from '../protocol/money.js';
import type { InvalidFieldError } from '../protocol/problems.js';
import { wholeNumberText } from '../whole-number-text.js';
import type { Language } from './language.js';
import { plural } from './plural.js';
import type { Absence, Found, Wanted } from './scenario-checks.js';

/** A count and its noun, the count grouped as English writes it (1,234 records). */
const count = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** What could not be done with a local file (errors.ts LocalStorageError): each said in every language. */
export type StorageAction =
  | 'read the journal'
  | 'open the ledger'
  | 'read the ledger'
  | 'write the ledger'
  | 'write the journal'
  | "read the journal's directory"
  | "read the journal's archive"
  | 'read the journal cut'
  | 'write the ledger fallback file'
  | 'take the ledger fallback file'
  | 'remove the delivered ledger fallback file'
  | 'read the results file'
  | 'write the results file'
  | 'write the metrics file';

/** What a command needs to reach a real gateway (settings/connection-set.ts). */
export type ConnectionPart = 'gateway' | 'agentId' | 'password';

/** A name an order file gives that no order has, and the one it most likely meant (closest-name.ts). */
interface UnknownName {
  name: string;
  meant: string | undefined;
}

/** A bulk row whose kept TransactionID the ledger holds for another purchase: that purchase. */
interface OtherPurchaseRow {
  line: number;
  transactionId: string;
  account: string;
  amount: string;
  currency: string;
}

/** What a whole-number option counts, as its message names it. */
export type NumberUnit = 'milliseconds' | 'payments' | 'polls' | 'seconds' | 'columns';

/** How a message names the signal that stopped a command. */
const signalText = (signal: 'SIGINT' | 'SIGTERM') => (signal === 'SIGINT' ? 'Ctrl+C (SIGINT)' : 'SIGTERM');

/** A local time as its parts, each as written: `2025`, `03`, `04`, `18:05:06`, `+03:00` (none in a table). */
interface LocalTimeParts {
  year: string;
  month: string;
  day: string;
  time: string;
  offset?: string | undefined;
}

const localDay = (date: { year: string; month: string; day: string }) => `${date.year}-${date.month}-${date.day}`;

/** The human text in English, the source of the catalogue's keys: ru.ts is typed by it, so a missing key fails
 * tsc. Parameters are put in as given; never used for --json, field names, the ledger or report keys. */
const en = {
  locale: 'en' as Language,
  /** An amount for a person: the decimal string exactly as sent. */
  amount: (decimal: string) => decimal,
  /** How a person of this language types an amount (`1500,50` in Russian): read by --amount and buy's prompt. */
  amountNotation: 'point' as AmountNotation,
  /** Any other decimal shown to a person (an exchange rate, a count's sum): exactly as given. */
  number: (decimal: string) => decimal,
  /** A local day for a person: `2025-03-04`, from its parts. */
  localDay: localDay,
  /** A local time for a person: `2025-03-04 18:05:06 +03:00` (a table's, without the offset), from its parts. */
  localTime: (date: LocalTimeParts) =>
    `${localDay(date)} ${date.time}${date.offset === undefined ? '' : ` ${date.offset}`}`,
  yes: 'yes',
  no: 'no',

  boundary: {
    internalError: 'internal error: ',
    internalErrorHint:
      'this is a bug in agentpay; if it was paying, the payment may have been made: run `agentpay reconcile` before paying again',
    firstBytes: 'first bytes of the answer:',
    warning: 'warning:',
  },

  help: {
    program: 'Top up customer accounts and buy vouchers through the agent payment gateway.',
    programUsage: '[options] <command>',
    version: 'output the version number',
    help: 'display help for command',
    helpCommand: 'display help for command',
    /** Each command in one line, for the main help's list (its own help says the whole of it). */
    summaries: {
      check: "list a service's vouchers for an account (AccountCheck)",
      pay: 'pay a voucher or an amount, once',
      buy: 'interactive top-up at a terminal',
      status: 'look transactions up by TransactionID (Status)',
      reconcile: "settle open payments; compare with a provider's registry",
      history: 'the ledger: the latest state of each payment',
      report: 'counts and exact sums over a day or a range',
      receipt: 'print the receipt of a transaction in the ledger',
      approvals: "the purchases awaiting a supervisor's approval",
      approve: "approve another operator's request (a supervisor)",
      decline: "decline another operator's request (a supervisor)",
      shift: 'open and close your shift, X- and Z-reports (team ledger)',
      ledger: 'look after the ledger: import, export, a team ledger',
      doctor: 'show each setting and its source, then check the gateway',
      scenario: 'run scenario files against the gateway',
      sandbox: 'run the sandbox gateway in the foreground',
      completion: 'print the shell completion script (bash, zsh, fish)',
    } as Record<string, string>,
    commonOptions: 'Common options:',
    examplesTitle: 'Examples:',
    examples: {
      buy: 'pick and pay, in the sandbox',
      check: 'the vouchers',
      pay: 'a payment',
      status: 'ask the gateway',
      help: "a command's options",
    },
    moreOptions: 'Every global option (gateway, ledger, limits, network): agentpay help options',
    optionsCommand: 'every global option, with its environment variable and default',
    titles: {
      'Usage:': 'Usage:',
      'Options:': 'Options:',
      'Commands:': 'Commands:',
      'Arguments:': 'Arguments:',
      'Global Options:': 'Global Options:',
    } as Record<string, string>,
    choices: 'choices',
    /** One of an option's choices in its help, as commander quotes it: ",", "tab". */
    choice: (value: string) => JSON.stringify(value),
    default: 'default',
    env: 'env',
    optionsTerm: '[options]',
    /** Arguments' names in the usage lines (`<txn-id>`), by their name in the definitions. */
    argumentNames: {} as Record<string, string>,
    /** The words of an option's value in the list of options (`--from-file <path>`), by the definition's word. */
    valueNames: {} as Record<string, string>,
    afterError: '(agentpay --help lists the commands and options)',
    usageAfterError: (command: string, usage: string) =>
      `usage: agentpay ${command} ${usage}  (agentpay ${command} --help for more)`,
    /** Commander's own error lines, as it writes them: English already. */
    commanderError: (text: string) => text,
  },

  errors: {
    cancelled: 'cancelled',
    cancelledNothingPaid: 'cancelled: nothing was paid',
    cancelledDuplicate: 'cancelled: nothing was paid (the same top-up was made recently)',
    noPaymentSent: 'no payment was sent',
    outcomeUnknown: (id: string, reason: string) => `the outcome of payment ${id} is unknown: ${reason}`,
    /** `retry`: the whole command that sends the same Payment again (commands/retry-command.ts), where there is one. */
    outcomeUnknownHint: (id: string, retry?: { command: string; masked: boolean }) =>
      `it may have been made and is kept in the ledger; look it up with \`agentpay status ${id}\` or settle it with \`agentpay reconcile\`${retry === undefined ? '' : `; to try again without paying twice: \`${retry.command}\`${retry.masked ? ' (type your password back where it shows ***)' : ''}`}`,
    ledgerUnreachable: (ledger: string, reason: string) => `the ledger ${ledger} cannot be reached (${reason})`,
    ledgerUnreachableHint:
      'check that the database server is up and the URL, user and password are right (`agentpay doctor` shows them, the password as ***)',
    localStorage: (what: StorageAction, path: string, reason: string) => `cannot ${what} ${path} (${reason})`,
    /** Why a file could not be opened, in words, then its errno code for scripts: "no such file (ENOENT)". */
    fileReason: (code: string) => {
      const words: Readonly<Record<string, string>> = {
        ENOENT: 'no such file',
        EACCES: 'permission denied',
        EPERM: 'permission denied',
        EISDIR: 'it is a directory',
        ENOTDIR: 'a part of the path is not a directory',
      };
      return Object.hasOwn(words, code) ? `${words[code]} (${code})` : code;
    },
    localStorageHints: {
      EROFS: 'the file system is mounted read-only: remount it read-write, or choose another ledger file with --ledger',
      ENOSPC: 'the disk (or your quota) is full: free some space, or choose another ledger file with --ledger',
      EACCES: 'this user may not use that file: fix its permissions, or choose another ledger file with --ledger',
      EISDIR: 'that path is a directory: give the ledger file itself with --ledger',
      other: 'fix the file, or choose another ledger file with --ledger',
    },
    /** The event loop ran dry before the command settled (a bug): main.ts. */
    stoppedEarly:
      'the command stopped before it finished (nothing was left to wait for); if it was paying, run `agentpay reconcile`',
    /** SIGINT or SIGTERM stopped the command (errors.ts InterruptedError); one line, no hint. */
    stopped: (signal: 'SIGINT' | 'SIGTERM') => `stopped by ${signalText(signal)} before it finished`,
    stoppedNothingPaid: (signal: 'SIGINT' | 'SIGTERM') =>
      `stopped by ${signalText(signal)} before the payment: nothing was paid`,
    stoppedReconcile: (signal: 'SIGINT' | 'SIGTERM', recorded: number) =>
      `stopped by ${signalText(signal)}: ${plural('en', recorded, { one: 'outcome', other: 'outcomes' })} learned so far recorded in the ledger and printed above; run \`agentpay reconcile\` again for the rest`,
    /** A third signal: main.ts stops the process without waiting for the command. */
    stoppedAtOnce: (signal: 'SIGINT' | 'SIGTERM') =>
      `stopped at once by a third ${signalText(signal)}; if it was paying, run \`agentpay reconcile\` before paying again`,
  },

  options: {
    required: (flag: string) => `${flag} is required`,
    notEmpty: (flag: string) => `${flag} must not be empty`,
    takesText: (flag: string) => `${flag} takes a text value`,
    /** A flag's text refused as an order file's cell is (after the flag: "holds the control character ..."). */
    badText: (flag: string, problem: string) => `${flag} ${problem}; nothing was sent`,
    isSwitch: (flag: string) => `${flag} is a switch and takes no value`,
    invoiceIdDigits: '--invoice-id must be digits, as in the check list',
    invoiceOrAmount: 'give --invoice-id <id> for a dynamic voucher, or --amount <decimal> for a static one',
    zeroAmount: '--amount of zero pays nothing: a static payment is more than zero; nothing was sent',
    /** A field the protocol core refused (protocol/problems.ts): its own English message. */
    field: (error: InvalidFieldError) => error.message,
  },

  settings: {
    noGateway: 'no gateway is set',
    noGatewayHint: 'give --base-url <url> or AGENTPAY_BASE_URL, use a --profile, or try --sandbox',
    noAgentId: 'no agent id is set',
    noAgentIdHint: 'give --agent-id <id> or AGENTPAY_AGENT_ID, or use a --profile',
    /** Two or more of the gateway, the agent id and the password missing: all named in one error. */
    notSet: (parts: readonly ConnectionPart[]) => {
      const named = {
        gateway: 'the gateway (--base-url <url> or AGENTPAY_BASE_URL)',
        agentId: 'the agent id (--agent-id <id> or AGENTPAY_AGENT_ID)',
        password: 'the agent password (AGENTPAY_PASSWORD, or --password-file <path>)',
      };
      const words = parts.map((part) => named[part]);
      return `not set: ${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
    },
    notSetHint: 'set each as shown, or use a --profile that holds them; or try --sandbox',
    sandboxAndBaseUrl: '--sandbox and --base-url cannot be used together',
    dropOne: 'drop one of them',
    playLedgerFlag: (mode: string) => `${mode} records in a ledger of its own: --ledger (--journal) cannot go with it`,
    playLedgerFlagHint: (mode: string) =>
      `drop it: ${mode} keeps play money out of the real books, in $XDG_STATE_HOME/agentpay (give another XDG_STATE_HOME for a separate one)`,
    noPassword: 'no agent password is set',
    noPasswordEntered: 'no password was entered',
    passwordPrompt: 'Agent password',
    noPasswordHint:
      'set AGENTPAY_PASSWORD, or use --password-file <path> (- reads stdin), or a profile; or try --sandbox',
    /** Where a value came from, as settings/sources.ts names it: a flag, a variable, or the level. */
    where: (where: string) => where,
    yesOrNo: (shown: string, where: string) => `${shown} (${where}) must be true or false`,
    amounts: {
      notAmounts: 'expected amounts per currency',
      notCurrency: (currency: string) => `${JSON.stringify(currency)} is not a three-letter currency code`,
      notDecimal: (currency: string | undefined, number: boolean) =>
        `the amount for ${currency ?? 'any currency'} must be a plain decimal such as "50000.00"${number ? ', written as text' : ''}`,
      twice: (currency: string) => `${currency} is given twice`,
      profileHint: 'write it as {"KZT": "50000.00"}',
      flagHint: 'give KZT=50000.00 (several: KZT=50000.00,USD=100), or one amount for any currency',
    },
    notDuration: (name: string, shown: string, where: string) => `${name} ${shown} (${where}) is not a span of time`,
    durationHint: 'give 30s, 10m or 1h (0 or off for none)',
    wholeNumber: (name: string, shown: string, where: string, min: number, max: number, unit?: 'milliseconds') =>
      `${name} ${shown} (${where}) must be a whole number${unit === undefined ? '' : ` of ${unit}`} from ${min} to ${max}`,
    oneOf: (name: string, shown: string, where: string, allowed: string) =>
      `${name} ${shown} (${where}) must be one of: ${allowed}`,
    codeNotInteger: (key: string, code: string, where: string) =>
      `${key}: code ${JSON.stringify(code)} (${where}) is not an integer`,
    codeTen: (key: string, where: string) => `${key} (${where}) cannot include 10: it means success (spec 7)`,
    agentIdDigits: (shown: string, where: string) =>
      `agent id ${shown} (${where}) must be digits only, with no leading zero`,
    /** A URL setting: `base URL` or `proxy`, by `what`. */
    url: {
      names: { base: 'base URL', proxy: 'proxy' } as Record<'base' | 'proxy', string>,
      notUrl: (what: string, shown: string, where: string) => `${what} ${shown} (${where}) is not a URL`,
      scheme: (what: string, shown: string, where: string) =>
        `${what} ${shown} (${where}) must start with http:// or https://`,
      queryOrFragment: (shown: string, where: string) =>
        `base URL ${shown} (${where}) must not carry a query or fragment`,
      credentials: (where: string) => `base URL (${where}) must not carry a user name or password`,
      credentialsHint: 'the gateway takes AgentID and AgentPassword as form fields: drop the user:password@ part',
      homeIndex: (shown: string, where: string) =>
        `base URL ${shown} (${where}) ends in /home/index, which agentpay adds itself`,
      give: (example: string) => `give ${example}`,
      giveAs: (url: string) => `give it as https://${url} (or http://)`,
      giveOne: (example: string) => `give one such as ${example}`,
    },
    ledgerPasswordOnCommandLine: (flag: string) =>
      `the ${flag} URL holds a password, which anyone on this machine can see in \`ps\`: put it in PGPASSWORD or ~/.pgpass, or give the URL in AGENTPAY_LEDGER`,
  },

  gateway: {
    unreachable: (endpoint: string, reason: string) => `cannot reach the gateway at ${endpoint}: ${reason}`,
    timedOut: (endpoint: string, reason: string) => `the gateway at ${endpoint} timed out: ${reason}`,
    noPaymentSentSuffix: '; no payment was sent',
    caHint: 'if the gateway uses a private CA, give its certificate with --ca-file <pem> (or AGENTPAY_CA_FILE)',
    timeoutHint: 'try again later, or allow more time with --timeout <ms>',
    networkHint: (route: string | undefined) =>
      `check --base-url${route ? `, the proxy (${route})` : ''} and the network, then try again`,
    unavailable: (status: number) => `the gateway is unavailable (HTTP ${status})`,
    tryLater: 'try again later',
    answeredHttp: (status: number) => `the gateway answered HTTP ${status}`,
    notUnderstood: (reason: string) => `the answer was not understood: ${reason}`,
    answerNotUnderstood: (reason: string) => `the gateway's answer was not understood: ${reason}`,
    answeredHttpNotEnvelope: (status: number, text: string | undefined, reason: string) =>
      `the gateway answered HTTP ${status} instead of a protocol answer: ${text === undefined ? reason : `"${text}"`}`,
    verboseHint: 'run with --verbose to see the first bytes of the answer',
    failures: {
      couldNotConnectWithin: (ms: number) => `could not connect within ${ms} ms`,
      noAnswerWithin: (ms: number) => `no complete answer within ${ms} ms`,
      proxyTunnel: (status: string) => `the proxy refused to open a tunnel to the gateway (HTTP ${status})`,
      proxyAuth: 'the proxy asks for credentials (HTTP 407): put them in the proxy URL',
      interrupted: 'interrupted before the answer arrived',
      certificate: (otherHost: boolean, code: string) =>
        `the TLS certificate ${otherHost ? 'is for another host name' : 'is not trusted'} (${code}); nothing was sent`,
      refused: 'connection refused',
      hostNotFound: 'host name not found',
      closed: 'the connection was closed before the answer arrived',
      timedOutConnected: 'the connection timed out before the answer arrived',
      timedOutConnecting: 'could not connect (timed out)',
      notHttp: (code: string) => `the answer is not valid HTTP (${code})`,
    },
  },

  purchase: {
    noMessage: 'no message',
    checkRefused: (message: string, status: string) =>
      `the gateway refused the account check: ${message} (ResponseStatus ${status})`,
    checkRefusedHint:
      'check --service, --account and --currency; if the message is about the agent id or password, check them with `agentpay doctor`',
    checkRefusedNothingSent: (message: string, status: string) =>
      `the gateway refused the account check, so no payment was sent: ${message} (ResponseStatus ${status})`,
    /** This and the two below are reasons alone: errors.ts VoucherChoiceError adds "; no payment was sent". */
    emptyList: (service: string, account: string) =>
      `the voucher list of service ${service} is empty for account ${account} now`,
    emptyListHint:
      'the gateway has no vouchers for this account at the moment: try again later, or another account or service',
    invoiceNotInList: (wanted: { invoiceId: string } | { position: number }, service: string) =>
      `invoice ${'invoiceId' in wanted ? wanted.invoiceId : `#${wanted.position}`} is not in the voucher list of service ${service}`,
    invoiceIdsThere: (known: string) => `InvoiceIds there: ${known}`,
    invoiceTwice: (invoiceId: string, service: string, amounts: string) =>
      `invoice ${invoiceId} stands for more than one voucher in the list of service ${service} (${amounts})`,
    invoiceTwiceHint: 'give --amount with the OrderAmount of the one to pay (a bulk row: its amount column)',
    noListPayWithAmount: 'the service has no voucher list: pay it with --amount',
    /** `flag`: --amount as typed; none in a bulk row, whose column names it. */
    amountNotOrderAmount: (amount: string, invoiceId: string, orderAmount: string, flag?: string) =>
      `${flag === undefined ? '' : `${flag} `}${amount} is not the OrderAmount of invoice ${invoiceId}, ${orderAmount}`,
    amountsMustMatch: (orderAmount: string) =>
      `amounts must match to the last digit (spec 4.2): drop --amount or give ${orderAmount}`,
    refused: (id: string, message: string, status: string) =>
      `the gateway refused transaction ${id}: ${message} (ResponseStatus ${status})`,
    pending: (id: string, status: string) => `transaction ${id} is still in progress (ResponseStatus ${status})`,
    pendingHint: (id: string) => `follow it with: agentpay status --wait 120 ${id}`,
    lookUpRefused: (said: string) =>
      `the gateway refused the look-up itself (${said}), which says nothing of the payment`,
    lookUpRefusedHint: 'check the agent id and password with `agentpay doctor`, then look again',
    notFound: (said: string) => `not found at the gateway (${said})`,
    notFoundHint: (id: string) =>
      `a payment made moments ago may not have reached it yet: look again with \`agentpay status ${id}\`; \`agentpay reconcile\` closes a recorded one as never made once it is older than --grace`,
    unclassified: (said: string) =>
      `the gateway answered ${said}, a code not classified for this gateway, so it is not final`,
    unclassifiedHint: (classify: string) =>
      `${classify}; until then it stays open and \`agentpay reconcile\` asks the gateway again`,
    replay: (id: string, at: string, differing: string) =>
      `transaction ${id} was already used on ${at} for another purchase (${differing}); nothing was sent`,
    replayHint: (differing: string) =>
      `to retry the earlier purchase safely, repeat it exactly (${differing}); only for a new, separate payment drop --txn-id`,
    none: 'none',
    notSentOnDisk: (hint: string) => `a payment is only sent once its intent is on disk; ${hint}`,
    meaning: { pending: 'in progress', notFound: 'not found', unclassified: 'not classified' },
    answerLost: (id: string, reason: string) =>
      `the answer to payment ${id} was lost (${reason}); asking the gateway with Status`,
    notFinal: (id: string, answer: string) =>
      `payment ${id} is not final yet (${answer}); asking the gateway with Status`,
    lookingUp: (id: string, lookUp?: { attempt: number; of: number }) =>
      `Waiting for the gateway's word on payment ${id}${lookUp === undefined ? '' : ` (Status ${lookUp.attempt} of ${lookUp.of})`}…`,
    resending:
      'the gateway does not know it: sending the same payment again (same TransactionID, so it cannot pay twice)',
    retrying: (id: string) =>
      `transaction ${id} is in the ledger for this purchase: asking the gateway again (a repeat pays nothing twice)`,
    outcomeNotRecorded: (message: string, id: string) =>
      `${message}: the outcome of ${id} is not recorded; \`agentpay reconcile\` will settle it from the gateway`,
    lookUpsNotRecorded: (message: string) =>
      `${message}: what the look-ups learn is not recorded; \`agentpay reconcile\` will settle the ledger's payments`,
  },

  desk: {
    limitNames: {
      maxAmount: 'the limit for one payment',
      dailyLimit: 'the daily limit',
      accountDailyLimit: "the account's daily limit",
      approvalOver: 'the approval threshold',
    },
    limit: (name: string, amount: string, currency: string, setBy: string) =>
      `${name} of ${amount} ${currency} (${setBy})`,
    /** What set a limit: a profile by its name, a flag, or the team ledger's policy (its administrator). */
    setBy: (by: { profile: string } | { flag: string } | { ledger: string }) =>
      'profile' in by
        ? `profile ${JSON.stringify(by.profile)}`
        : 'flag' in by
          ? by.flag
          : `the team ledger's policy, set by ${by.ledger}`,
    overSingle: (amount: string, currency: string, limit: string) => `${amount} ${currency} is over ${limit}`,
    operatorToday: (whose: string) => `${whose}'s payments today`,
    accountToday: (whose: string) => `account ${whose}'s payments today`,
    overDaily: (amount: string, currency: string, of: string, from: string, to: string, limit: string) =>
      `${amount} ${currency} would take ${of} from ${from} to ${to} ${currency}, over ${limit}`,
    refusedLimits: (breaches: string) => `refused: ${breaches}; nothing was sent`,
    refusedLimitsHint:
      'check the amount and the account; if the payment is right, repeat it with --over-limit (the ledger records it, with your name)',
    refusedDuplicate: (count: number, payments: string) =>
      `refused as a duplicate top-up: the same payment was made ${count === 1 ? 'once' : `${count} times`} recently (${payments}); nothing was sent`,
    refusedDuplicateHint: (id: string) =>
      `to settle the earlier one, \`agentpay status ${id}\`; to retry it safely, \`pay\` with --txn-id ${id}; only to pay again on purpose, \`pay\` with --allow-duplicate, or \`buy\` again (it asks)`,
    minutesAgo: (minutes: number) => (minutes === 0 ? 'less than a minute ago' : `${minutes} min ago`),
    /** An earlier like payment; `as`: the noun's role in the sentence it is put in (a subject, or the object of "repeats"). */
    duplicate: (
      p: {
        id: string;
        amount: string;
        currency: string;
        account: string;
        service: string;
        when: string;
        operator: string | undefined;
        state: string | undefined;
      },
      _as: 'subject' | 'object' = 'subject',
    ) =>
      `transaction ${p.id}, ${p.amount} ${p.currency} to account ${p.account} on service ${p.service}, ${p.when}${p.operator ? ` by ${p.operator}` : ''}, ${p.state ?? 'no answer yet'}`,
    live: {
      noGateway: 'no gateway set',
      agent: (id: string | undefined) => `agent ${id ?? 'not set'}`,
      chosenBy: (by: string) => `chosen by ${by}`,
      otherWays: 'or choose a test gateway (--profile, --sandbox)',
      payNeedsYes: (profile: string) =>
        `pay through the live profile ${profile} from a script needs --yes (stdin is not a terminal); nothing was sent`,
      payNeedsYesHint: (otherWays: string) => `add --yes if this payment is meant for the live gateway, ${otherWays}`,
      confirm: (p: { amount: string; currency: string; account: string; service: string; profile: string }) =>
        `Pay ${p.amount} ${p.currency} to account ${p.account}, service ${p.service}, through the LIVE profile ${p.profile}?`,
    },
  },

  /** The two-person rule (docs/desk-safety.md, Approval): requests, decisions, paying an approved one. */
  approvals: {
    needed: (breach: string) => `needs a second person: ${breach}; nothing was sent`,
    neededByLedger: (over: string) =>
      `needs a second person: the amount is over the team ledger's approval threshold of ${over} (set by its administrator); nothing was sent`,
    notACurrencyCode:
      'the team ledger weighs its approval thresholds by currency code: the currency must be three capital letters, the amount a plain decimal; nothing was sent',
    heldByRequest:
      'this TransactionID is held by a request for approval: only its purchase, once approved, is sent, by `agentpay pay --approved <txn-id>`; nothing was sent',
    neededHint:
      'ask a supervisor: repeat it with --request-approval; once approved, `agentpay pay --approved <txn>` sends it',
    teamLedgerOnly:
      "a second person's approval needs the team ledger on PostgreSQL (--ledger postgres://<role>@<host>/<database>): a ledger file on this machine cannot tell one person from another; nothing was sent",
    playMoney: (mode: string) =>
      `${mode} is play money, kept in a ledger of its own: approvals and shifts are a team ledger's, for a real gateway (docs/sandbox.md)`,
    requested: (id: string, expires: string) =>
      `transaction ${id} awaits a supervisor's approval until ${expires}; nothing was sent`,
    requestedHint: (id: string) =>
      `a supervisor other than you runs \`agentpay approve ${id}\`; then \`agentpay pay --approved ${id}\` sends it`,
    approved: (id: string, requester: string) =>
      `transaction ${id}, requested by ${requester}, is approved: \`agentpay pay --approved ${id}\` sends it`,
    declined: (id: string, requester: string) =>
      `transaction ${id}, requested by ${requester}, is declined: it will not be sent`,
    noneOpen: 'no requests await approval',
    columns: {
      transactionId: 'TransactionID',
      purchase: 'Purchase',
      needs: 'Needs',
      requestedBy: 'Requested by',
      expires: 'Expires',
      where: 'Gateway',
    },
    purchase: (amount: string, currency: string, account: string, service: string) =>
      `${amount} ${currency} to ${account}, service ${service}`,
    voucher: (name: string) => `voucher ${name}`,
    askedBy: (role: string) => `requested by ${role}`,
    where: (gateway: string, agentId: string) => `${gateway}, agent ${agentId}`,
    deciding: (approve: boolean, request: string) => `${approve ? 'approving' : 'declining'} ${request}`,
    notDecided: 'not decided: nothing was changed',
    ambiguous: (id: string, candidates: string) =>
      `TransactionID ${id} stands in more than one request: ${candidates}; nothing was changed`,
    ambiguousHint: 'name the gateway and agent of the one you mean with --base-url and --agent-id (or --profile)',
    needs: {
      'approval-over': 'over the approval threshold',
      duplicate: 'a duplicate top-up',
      asked: 'asked for',
    } as Record<string, string>,
    refused: (reason: string, sent: boolean) =>
      `refused: ${reason}; ${sent ? 'nothing was sent' : 'nothing was changed'}`,
    reasons: {
      notSupervisor: (role: string) => `${role} is not a supervisor role, and only a supervisor approves or declines`,
      ownRequest: (role: string) => `${role} asked for this payment, so a second person must decide it`,
      expired: (id: string) => `the request for ${id} has expired`,
      decided: (id: string) => `the request for ${id} was decided already`,
      none: (id: string) => `there is no request for approval of ${id} on this gateway`,
      waiting: (id: string) => `${id} still awaits a supervisor's approval`,
      declined: (id: string) => `${id} was declined`,
      taken: (id: string) => `transaction ${id} is in the ledger already`,
    },
    approvedAlone: (flag: string) =>
      `--approved sends the purchase as it was approved: ${flag} cannot change it; nothing was sent`,
    reasonHint: 'see the open requests with `agentpay approvals`',
    sentAlready: (id: string, state: string) =>
      `transaction ${id} was sent under this approval already (${state}); it was not sent again`,
    sentAlreadyHint: (id: string) => `its answer: \`agentpay status ${id}\``,
    requestedBy: 'Requested by',
    approvedBy: 'Approved by',
  },

  /** Shifts and their X and Z reports (docs/desk-safety.md, Shifts). */
  shifts: {
    teamLedgerOnly:
      'shifts are kept by the team ledger on PostgreSQL (--ledger postgres://<role>@<host>/<database>): a ledger file on this machine has none; nothing was changed',
    opened: (role: string, at: string) => `shift of ${role} open since ${at}`,
    alreadyOpen: 'your role has a shift open already: nothing was changed',
    alreadyOpenHint: '`agentpay shift x` shows it; `agentpay shift close` closes it',
    noShift: (role: string) => `${role} has no open shift`,
    noShiftHint: '`agentpay shift open` opens one',
    outsideByLedger: (role: string) =>
      `payments need an open shift on this team ledger (set by its administrator), and ${role} has none; nothing was sent`,
    outside: (role: string) =>
      `payments need an open shift here (profile key shifts), and ${role} has none; nothing was sent`,
    openItem: (id: string, state: string) => `${id} (${state})`,
    closeRefused: (items: string) => `the shift cannot close while these are not final: ${items}; nothing was changed`,
    closeRefusedHint:
      'settle them (`agentpay reconcile`, `agentpay status <id>`, `agentpay approvals`), or close with --carry-over to carry them into the next shift',
    closeRaced: 'the shift changed, or another Z-report was made, at the same moment: nothing was changed',
    closeRacedHint: 'run `agentpay shift close` again',
    closed: (number: number, hash: string) => `shift closed: Z-report ${number}, SHA-256 ${hash}`,
    chainIntact: (count: number) =>
      count === 0 ? 'no Z-reports yet' : `the ${count} Z-report${count === 1 ? ' is' : 's are'} intact`,
    chainBroken: (number: string, why: string) => `Z-report ${number} is not as it was made: ${why}`,
    breaks: {
      content: 'its content is not JSON',
      number: 'its number is out of sequence',
      hash: 'its content does not match its hash',
      link: "it does not name the previous report's hash",
    } as Record<string, string>,
    chainBrokenHint: 'the reports before it are intact; ask the database administrator who changed the table',
    shiftAlone: '--shift names the span itself: leave out --date, --since and --until',
    noSuchReport: (number: number) => `there is no Z-report ${number} in this ledger`,
    noSuchReportHint: '`agentpay shift verify --json` counts the reports',
    xTitle: 'X-report (the shift is open)',
    zTitle: (number: number) => `Z-report ${number}`,
    approvedLine: (id: string, requestedBy: string, approvedBy: string) =>
      `${id}: asked ${requestedBy}, approved ${approvedBy}`,
    approvalsHeading: 'Approved',
    openHeading: 'Not final',
    carriedHeading: 'Carried into the next shift',
    noPayments: 'no payments',
    hash: 'SHA-256',
    previous: 'Previous',
  },

  lock: {
    holder: (pid: string, host: string, since: string) => `process ${pid} on ${host}, since ${since}`,
    unknownHolder: 'a process that has not said who it is yet',
    purchaseBusy: 'another terminal has held this account for 30 s (stopped between its check and its commit?)',
    ledgerWaiting: (path: string) => `waiting for ${path}: another agentpay is writing to it (Ctrl+C stops the wait)`,
    ledgerBusy: (path: string) => `another agentpay process has held ${path} for 30 s`,
    ledgerBusyHint: 'try again once the other agentpay command has ended (`ps` shows it); nothing was written',
    runBusy: (file: string, holder: string) => `${file} is being paid by another run: ${holder}; nothing was sent`,
    runBusyHint: (results: string) =>
      `wait for that run to end, then run the file again (it resumes from ${results}); a lock left by a run that died on this machine is taken over; one from another machine or container: remove ${results}.lock once that run is gone`,
  },

  states: { success: 'success', failed: 'failed', pending: 'pending', unknown: 'unknown' } as Record<
    'success' | 'failed' | 'pending' | 'unknown',
    string
  >,
  /** Under a table whose columns did not all fit the terminal's width. */
  hiddenColumns: (headings: string) =>
    `not shown for want of width: ${headings} (a wider window, --format csv or --json shows every column)`,

  receipt: {
    /** The whole heading per noun and state, so a language agrees its noun and verb (Платёж прошёл, Транзакция прошла). */
    heading: (noun: 'payment' | 'transaction', state: 'success' | 'failed' | 'pending' | 'unknown') =>
      `${noun === 'payment' ? 'Payment' : 'Transaction'} ${{ success: 'succeeded', failed: 'failed', pending: 'is in progress', unknown: 'outcome is unknown' }[state]}`,
    labels: {
      transactionId: 'TransactionID',
      requestId: 'RequestID',
      state: 'State',
      service: 'Service',
      account: 'Account',
      amount: 'Amount',
      exchangeRate: 'Exchange rate',
      message: 'Message',
      warning: 'Warning',
      voucher: 'Voucher',
      time: 'Time',
      operator: 'Operator',
    },
    creditedIn: (currency: string) => ` (credited in ${currency})`,
    noName: '(no name)',
    noAnswerRecorded: 'no answer recorded: run agentpay reconcile',
  },

  check: {
    exchangeRate: (text: string) => `Exchange rate ${text}`,
    subject: (service: string, account: string) => `service ${service}, account ${account}`,
    staticService: (subject: string, command: string) =>
      `No voucher list for ${subject}: a static service. Pay it with: ${command} --amount <amount>`,
    emptyList: (subject: string) =>
      `No vouchers available for ${subject} now: the gateway's voucher list is empty (not a static service). Try again later, or another account.`,
    count: (count: number, subject: string) =>
      `${plural('en', count, { one: 'voucher', other: 'vouchers' })} for ${subject}`,
    payOne: (command: string) => `Pay one with: ${command} --invoice-id <InvoiceId>`,
    head: { position: '#', invoiceId: 'InvoiceId', name: 'Name', orderAmount: 'OrderAmount', currency: 'Currency' },
    exchange: (rate: string | undefined, paidIn: string, creditedIn: string | undefined) =>
      `${rate ?? 'not given'}: paid in ${paidIn}, ${creditedIn === undefined ? 'crediting currency not given' : `credited in ${creditedIn}`}`,
  },

  pay: {
    dryRun: 'dry run: this Payment would be sent; nothing was.',
  },

  buy: {
    aboutToPay: 'About to pay',
    labels: {
      service: 'Service',
      account: 'Account',
      voucher: 'Voucher',
      amount: 'Amount',
      exchangeRate: 'Exchange rate',
      invoiceId: 'InvoiceId',
      transactionId: 'TransactionID',
    },
    staticVoucher: 'static (no voucher list)',
    orderAmountExactly: ' (the OrderAmount, exactly)',
    payNow: (amount: string, currency: string) => `Pay ${amount} ${currency} now?`,
    checking: (subject: string) => `Checking ${subject}…`,
    paying: (amount: string, currency: string, id: string) => `Paying ${amount} ${currency}, TransactionID ${id}…`,
    sameTopUp: 'The same top-up was made recently; the customer may have it already:',
    typeDigits: (count: number) =>
      `To pay again anyway, type the last ${count === 1 ? 'digit' : `${count} characters`} of the account (Enter: do not pay)`,
    service: 'Service',
    serviceId: 'Service id',
    anotherService: 'another service id…',
    account: 'Customer account',
    currency: 'Currency',
    amount: (currency: string) => `Amount (${currency})`,
    mustNotBeEmpty: (what: 'service' | 'account') =>
      `${what === 'service' ? 'the service id' : 'the account'} must not be empty`,
    moreThanZero: 'the amount must be more than zero',
    whatNow: 'What now?',
    tryAccount: 'try another account',
    tryService: 'try another service',
    tryCurrency: 'try another currency',
    quit: 'quit',
    staticService: (service: string) =>
      `No voucher list for service ${service}: a static service, paid with an amount.`,
    voucher: 'Voucher',
    keys: (filter: boolean) => `↑/↓ to move${filter ? ', type to filter' : ''}, Enter to choose, Esc to cancel`,
    noVoucherCosts: (amount: string) => `no voucher costs exactly ${amount}; pick one`,
    noSuchVoucher: (picked: string) => `no such voucher: ${picked}`,
    overLimitMark: 'over the limit',
    overLimitPicked: (breaches: string) => `${breaches}: pick another voucher, or run buy again with --over-limit`,
    following: 'Following it until it is final; Ctrl+C stops following (the payment stands).',
    waiting: (id: string) => `Waiting for transaction ${id}…`,
    lookItUp: (id: string) => `look it up with: agentpay status ${id}`,
    stoppedFollowing: (id: string) => `stopped following transaction ${id} (still in progress)`,
    couldNotFollow: (id: string, reason: string) => `could not follow transaction ${id}: ${reason}`,
    kinds: { dynamic: 'dynamic', static: 'static' } as Record<'dynamic' | 'static', string>,
    checkRefusedStatic: (service: string, message: string, status: string) =>
      `the gateway refused the account check of service ${service} (${message}, ResponseStatus ${status}); the profile declares it static, so it is paid with an amount`,
    amountNotListed: (amount: string, service: string) =>
      `--amount ${amount} is not one of the amounts the profile lists for service ${service}; nothing was paid`,
    amountNotListedHint: (listed: string) => `give one of them exactly as written: ${listed}`,
    notInteractive: 'buy is interactive and has no --json output',
    needsTerminal: (missing: string) =>
      `buy is interactive and needs a person at a terminal (${missing}); nothing was sent`,
    missing: { stdin: 'stdin is not a terminal', stdout: 'stdout is not a terminal', ci: 'CI is set' },
    scriptsHint:
      'scripts list the vouchers with `agentpay check --service <id> --account <account>`, then pay one with `agentpay pay --service <id> --account <account> --invoice-id <id>` (or --amount)',
  },

  /** history: render/history.ts and commands/history (its CSV and --json are data, in English). */
  history: {
    head: {
      when: 'When',
      gateway: 'Gateway',
      operator: 'Operator',
      host: 'Host',
      approvedBy: 'Approved by',
      transactionId: 'TransactionID',
      state: 'State',
      service: 'Service',
      account: 'Account',
      amount: 'Amount',
      requestId: 'RequestID',
    },
    none: (ledger: string, filtered: boolean) => `no transactions in ${ledger}${filtered ? ' match' : ''}`,
    gateways: (names: string) => `gateways in the ledger: ${names}`,
  },

  /** report: render/report-table.ts and commands/report (its CSV and --json are data, in English). */
  report: {
    head: {
      service: 'Service',
      operator: 'Operator',
      approvedBy: 'Approved by',
      currency: 'Currency',
      state: 'State',
      count: 'Count',
      sum: 'Sum',
    },
    total: 'Total',
    /** The range a report covers: a local day, or from a time (or the beginning) to a time. */
    day: (day: string) => `${day} (local day)`,
    span: (from: string | null, until: string) => `${from ?? 'the beginning'} to ${until}`,
    none: (ledger: string, range: string) => `no payments in ${ledger} for ${range}`,
    paymentsFor: (range: string) => `payments for ${range}`,
  },

  /** --metrics-file and --metrics-job: commands/measured-run.ts, commands/metrics-options.ts. */
  metrics: {
    badJob: (name: string) =>
      `--metrics-job ${JSON.stringify(name)} is not a job label: lowercase Latin letters, digits and _, starting with a letter (such as reconcile_nightly)`,
    jobWithoutFile: '--metrics-job goes with --metrics-file <path>',
    writeHint: 'create the directory or fix its permissions, or give another path with --metrics-file',
  },

  /** The summary line of a batch (status of many ids, reconcile): what was done, then a count per state. */
  batch: {
    summary: (heading: string, counts: { success: number; failed: number; pending: number; unknown: number }) =>
      `${heading}: ${counts.success} success, ${counts.failed} failed, ${counts.pending} pending, ${counts.unknown} unknown`,
    lookedUp: (total: number, notIds: number) =>
      `${total} looked up${notIds === 0 ? '' : notIds === 1 ? ', 1 line not an id' : `, ${notIds} lines not ids`}`,
    reconciled: (count: number) => `reconciled ${count}`,
  },

  /** reconcile (without --registry): commands/reconcile/run.ts. */
  reconcile: {
    leftOpen: (count: number, code: string, hint: string) =>
      `${count} transaction${count === 1 ? '' : 's'} left open on ResponseStatus ${code}: ${hint}`,
    classifyHint: (status: string, flags: string, keys: string) =>
      `classify ResponseStatus ${status} once the gateway's operator says what it means: ${flags}; profile keys ${keys}`,
    /** The meanings of the code lists, as classifyHint names them beside their flags. */
    meanings: { pending: 'in progress', notFound: 'no such transaction', failed: 'a final refusal' },
    others: (count: number, names: string) =>
      `${count} open transaction${count === 1 ? ' belongs' : 's belong'} to another gateway or agent: ${names}; run reconcile with that configuration to settle ${count === 1 ? 'it' : 'them'}`,
    owner: (gateway: string, agentId: string) => `${gateway} (agent ${agentId})`,
    nothing: (ledger: string) => `nothing to reconcile in ${ledger}`,
    /** What a look-up left open says in its line (not recorded: the ledger keeps only what was learned). */
    lookUpRefused: (answer: string) =>
      `the gateway refused the look-up itself (${answer}); check the agent id and password`,
    lostNow: (answer: string) =>
      `not found at the gateway now, though it answered ${answer} for it before; ask the gateway`,
    notFoundYet: (ageSeconds: number, graceSeconds: number) =>
      `not found at the gateway yet (${ageSeconds} s old; final after ${graceSeconds} s)`,
  },

  /** reconcile --registry: commands/reconcile/registry.ts and render/registry.ts (its CSV and --json are data, in English). */
  registry: {
    /** The lists by their names in the table and the summary. */
    lists: {
      'only-in-registry': 'only in the registry',
      'only-in-ledger': 'only in the ledger',
      different: 'different',
      'dated-another-day': 'dated another day',
    },
    head: {
      list: 'List',
      transactionId: 'TransactionID',
      date: 'Date',
      account: 'Account',
      registryAmount: 'Registry amount',
      ledgerAmount: 'Ledger amount',
      registryState: 'Registry state',
      ledgerState: 'Ledger state',
    },
    /** The registry's state of a row it lists. */
    paid: 'paid',
    /** The summary's first line: the registry's rows and sum, the ledger's days, how many agree. */
    compared: (registry: string, rows: number, sum: string, days: string, agreed: number) =>
      `registry ${registry}: ${rows} row${rows === 1 ? '' : 's'}, ${sum}; ledger days ${days}; ${agreed} agree`,
    daySpan: (first: string, last: string, days: number) => `${first} to ${last} (${days} days)`,
    /** A list's line of the summary: its name, count and the sum of the side that has amounts. */
    listSum: (list: string, rows: number, sum: string) => `${list}: ${rows} (${sum})`,
    differentSums: (list: string, rows: number, registrySum: string, ledgerSum: string) =>
      `${list}: ${rows} (registry ${registrySum}, ledger ${ledgerSum})`,
    noGateway: 'no gateway is set: the payments of every gateway in the ledger are compared',
    settled: (transactionId: string, state: string, message: string) =>
      `settled ${transactionId}: ${state} (${message})`,
    /** The first row dated other than --date, on stderr, and how many such rows are listed apart. */
    firstAnotherDay: (registry: string, line: number, date: string, day: string, rows: number) =>
      `registry ${registry} line ${line} is dated ${date}, not ${day} (--date): ${count(rows, 'row')} of another day listed apart as "dated another day", none compared`,
    /** A registry whose every row is of another day than --date: one line, nothing compared. */
    wholly: (registry: string, dates: string, day: string) =>
      `the registry ${registry} is of ${dates}, not ${day} (--date): nothing compared`,
    whollyHint: (date: string, day: string) =>
      `give --date ${date} (or leave --date out) to compare the registry's own day, or ask the provider for the registry of ${day}`,
    disagree: (payments: number) =>
      `the registry and the ledger disagree on ${payments} payment${payments === 1 ? '' : 's'}`,
    agree: 'the registry and the ledger agree',
    anotherDay: (rows: number, day: string) =>
      `${count(rows, 'row')} of the registry ${rows === 1 ? 'is' : 'are'} dated another day than ${day}`,
    notSettled: (payments: number) =>
      `${payments} open payment${payments === 1 ? '' : 's'} could not be settled (gateway trouble)`,
    listsHint:
      'the lists are on stdout: raise them with the provider before its deadline; open payments settle with agentpay reconcile',
    anotherDayHint: (day: string) =>
      `rows dated another day are not ${day}'s: reconcile them with --date of their day, or ask the provider why they are in this registry`,
    settleHint: 'run it again with --settle when the gateway answers',
    goesWithRegistry: (flag: string) => `${flag} goes with --registry <file>`,
    sinceWithRegistry: '--since does not go with --registry',
    sinceWithRegistryHint: 'the registry decides the days compared; give --date <day> to choose one',

    /** Reading the registry (registry/read.ts and beside it): where, then what is wrong there. */
    line: (registry: string, line: number) => `registry ${registry} line ${line}`,
    cell: (where: string, column: number, field: string) => `${where}, column ${column} (${field})`,
    atColumn: (column: number) => `, column ${column}`,
    fields: { transactionId: 'TransactionID', date: 'date', time: 'time', account: 'account', amount: 'amount' },
    /** A column as the file's header names it. */
    columnName: (name: string) => JSON.stringify(name),
    noColumn: (where: string, name: string, field: string, names: string) =>
      `${where}: the header has no column ${name} (the ${field}); it has ${names}`,
    nameColumnsHint: 'name the columns in a mapping file (--registry-format; docs/registries.md)',
    missingCell: (where: string, columns: number) => `${where}: missing; the row has ${count(columns, 'column')}`,
    fixRowHint: 'fix the row, or describe the layout in a mapping file (--registry-format)',
    fixLineHint: 'fix the line, or describe the layout in a mapping file (--registry-format)',
    badCell: (where: string, shown: string, why: string) => `${where}: ${shown} ${why}`,
    longCell: (start: string, length: number) => `${start}... (${length} character${length === 1 ? '' : 's'})`,
    notDate: (patterns: string) => `is not a date (${patterns})`,
    orBetween: ' or ',
    notTime: 'is not a time (HH:mm:ss)',
    notAmount: (example: string) => `is not an amount such as ${example}`,
    zeroId: 'is not a TransactionID: 0 names no transaction',
    leadingZero: (written: string) => `is written with a leading zero: a TransactionID is written without (${written})`,
    beyondLong: (max: string) => `is beyond a signed 64-bit Long (at most ${max}): not a TransactionID`,
    notId: 'is not a TransactionID (digits only: a signed 64-bit Long)',
    totalShape: (where: string, label: string) =>
      `${where}: the ${label} line should give the count of rows and the sum of their amounts, as in "${label} 3 4500.00"`,
    totalMismatch: (where: string, label: string, statedRows: string, stated: string, rows: number, sum: string) =>
      `${where}: the ${label} line says ${statedRows} rows summing ${stated}, but the registry's rows are ${rows} summing ${sum}; the registry contradicts itself`,
    rowAfterTotal: (where: string, label: string, totalLine: number) =>
      `${where}: a row after the ${label} line (line ${totalLine}); the total closes the registry`,
    listedAgain: (where: string, transactionId: string, first: number) =>
      `${where}: TransactionID ${transactionId} is listed again (first on line ${first}); the registry contradicts itself`,
    correctedHint: 'ask the provider for a corrected registry; nothing was compared',
    cannotRead: (registry: string, code: string) => `cannot read the registry ${registry} (${code})`,
    cannotReadHint: 'check the path given to --registry',
    notUtf8: (where: string, byte: string, character: number) =>
      `${where}: byte ${byte} at character ${character} is not UTF-8; nothing was compared`,
    notEncoded: (registry: string, encoding: string) =>
      `the registry ${registry} is not ${encoding}: some bytes have no character in it; nothing was compared`,
    notEncodedHint:
      'a registry is read as UTF-8 unless a mapping file names its encoding (--registry-format; docs/registries.md): save it as UTF-8, or name the encoding it is in',

    /** A mapping file (registry/mapping-file.ts): its file, the key, what was expected there. */
    mapping: {
      notYaml: (file: string, detail: string) => `registry mapping ${file} is not valid YAML or JSON: ${detail}`,
      invalid: (file: string, key: string, problem: string) => `registry mapping ${file}:${key} ${problem}`,
      hint: 'see docs/registries.md for the keys of a mapping file',
      required: 'is required',
      columnFrom1: 'a column number counts from 1',
      emptyName: 'a header name must not be empty',
      oneCharacter: 'one character, such as ";" or "," (or the word tab)',
      oneQuote: "one character, such as '\"'",
      encoding: 'a character set TextDecoder knows, such as utf-8 or windows-1251',
      datePattern: 'a date pattern with YYYY, MM and DD once each, such as DD.MM.YYYY',
      numbered: 'without a header row, columns are numbers counted from 1',
      unreadable: (file: string, code: string) =>
        `--registry-format ${file} is neither tsv, csv nor a readable mapping file (${code})`,
      unreadableHint: 'give tsv, csv, or the path of a JSON or YAML mapping file (docs/registries.md)',
    },
  },

  /** ledger migrate, import and compact: commands/ledger (their --json is data, in English). */
  ledger: {
    journalNotDatabase: (path: string) => `${path} is a journal of an earlier agentpay, not a ledger database`,
    importHint: (path: string) =>
      `load it into the ledger once with \`agentpay ledger import ${path}\`, then use the ledger (the default, or --ledger <file>.sqlite)`,
    oldJournalFound: (path: string) =>
      `${path} holds payments of an earlier agentpay: load them once with \`agentpay ledger import ${path}\``,
    leasedElsewhere: (count: number) =>
      `${count === 1 ? '1 open transaction is' : `${count} open transactions are`} being reconciled by another agentpay right now: left to it`,
    notAJournal: (path: string) => `${path} is not a journal of an earlier agentpay (JSON Lines): nothing was imported`,
    notAJournalHint:
      'give the journal file (journal.jsonl); a ledger database is moved with `agentpay ledger export > file.jsonl`, then `ledger import file.jsonl`',
    notADatabase: (path: string) => `${path} is neither an agentpay ledger database nor a journal`,
    notADatabaseHint: 'give --ledger a new file name (agentpay creates it) or the ledger file itself',
    onNetworkFileSystem: (path: string, kind: string) =>
      `${path} is on a network file system (${kind}): a SQLite ledger there can be damaged by writers on two machines`,
    onNetworkFileSystemHint:
      'keep the ledger on a local disk; a desk that shares one ledger across machines uses PostgreSQL (--ledger postgres://…, docs/team-ledger.md)',
    newerSchema: (ledger: string, version: number, known: number) =>
      `the ledger ${ledger} has schema version ${version}, newer than this agentpay knows (${known}); nothing was written`,
    newerSchemaHint: 'upgrade agentpay on this machine to the version that wrote it',
    upToDate: (ledger: string, version: number) => `the ledger ${ledger} is up to date (schema version ${version})`,
    applied: (ledger: string, version: number, name: string) => `${ledger}: applied migration ${version} (${name})`,
    otherPurchase: (id: string, path: string) =>
      `transaction ${id} is in the ledger for another purchase: its records in ${path} were left out`,
    playMoneyLeftOut: (records: number, path: string) =>
      `${count(records, 'record')} of play money (the gateways sandbox and replay) in ${path} left out: play money never enters these books`,
    imported: (path: string, ledger: string, added: number) =>
      `${path} → ${ledger}: ${added} record${added === 1 ? '' : 's'} added${added === 0 ? ' (all were there already)' : ''}`,
    operatorAdded: (role: string, supervisor: boolean, ledger: string) =>
      `${ledger}: operator role ${role} added${supervisor ? ' (a supervisor: may approve)' : ''}`,
    operatorRemoved: (role: string, ledger: string) =>
      `${ledger}: operator role ${role} removed (what it recorded keeps its name)`,
    noOperators: (ledger: string) => `${ledger} has no operator roles yet`,
    operatorColumns: { role: 'Role', supervisor: 'Supervisor', login: 'Can log in' },
    badRoleName: (role: string) =>
      `${JSON.stringify(role)} cannot be an operator role: a role is lower-case letters, digits and _, at most 63, not starting with a digit or pg_`,
    badRoleNameHint: 'name the role after the person, such as anna or b_ivanov',
    emptyPassword: 'the password read from stdin is empty',
    passwordStdinHint:
      'give the password on stdin: printf %s "$PASSWORD" | agentpay ledger add-operator <role> --password-stdin',
    roleExists: (role: string) => `the database already has a role ${role}: nothing was changed`,
    roleExistsHint: 'choose another name, or remove the operator first with `agentpay ledger remove-operator <role>`',
    notAnOperator: (role: string) => `${role} is not an operator role of agentpay: nothing was removed`,
    notAnOperatorHint: 'see the operator roles with `agentpay ledger operators`',
    refusedByDatabase: (what: string, reason: string) => `the database refused to ${what}: ${reason}`,
    needsAdministrator: "run it with an administrator's URL (a role with CREATEROLE that owns the ledger's tables)",
    operatorWhat: {
      add: 'add the operator',
      remove: 'remove the operator',
      list: 'list the operators',
      policy: "change the ledger's policy",
    },
    policyNeedsCurrency:
      'the team ledger keeps an approval threshold per currency: give KZT=150000.00, not an amount alone',
    policyNeedsCurrencyHint: 'for example --approval-threshold KZT=150000.00,USD=500',
    policyThreshold: (over: string, currency: string, by: string) => `approval over ${over} ${currency} (set by ${by})`,
    policyNoThreshold: 'no approval threshold',
    policyShiftsRequired: 'payments need an open shift',
    policyShiftsOptional: 'shifts are not required',
  },

  /** The sandbox's banner (commands/sandbox): its services' names and accounts' notes are the sandbox's own. */
  sandbox: {
    listening: 'sandbox gateway listening on',
    breaking: (faults: string) => `  breaking on purpose: ${faults} (see docs/sandbox.md)`,
    credentials: (agentId: string, password: string) => `  agent id ${agentId}, password ${password} (plain or MD5)`,
    services: '  services:',
    accounts: '  accounts:',
    codes: (pending: string, notFound: string, failed: string) =>
      `  codes: 10 success, ${pending} in progress, ${notFound} not found, ${failed} refused`,
    tryIt: '  try:',
    giveCodes: '  before paying through it by URL, give agentpay its codes:',
    stop: '  Ctrl+C stops it.',
  },

  /** --record and --replay: gateway/recorder.ts, sandbox/replay.ts, commands/embedded-endpoint.ts (docs/replay.md). */
  replay: {
    andBaseUrl: '--replay and --base-url cannot be used together',
    fallbackAlone: '--replay-fallback needs --replay <dir>',
    fallbackAloneHint: 'give the directory of recordings with --replay, or drop --replay-fallback',
    cannotRead: (directory: string, code: string) => `cannot read the recordings in ${directory}: ${code}`,
    badCassette: (directory: string, problem: string) => `a recording in ${directory} is not readable: ${problem}`,
    cutShort: (directory: string, problem: string) =>
      `a recording in ${directory} was cut short while written (${problem}): skipped; record that exchange again if it is needed`,
    empty: (directory: string) => `${directory} holds no recordings`,
    emptyHint: 'record some with --record <dir>, or add --replay-fallback to let the sandbox answer',
    cannotRecord: (directory: string, code: string) => `cannot record into ${directory}: ${code}`,
    nothingSent: 'nothing was sent',
    /** A request no recording answers (protocol/replay-miss.ts): what it means for the payment or look-up. */
    noRecording: (asked: string, meaning: 'payment' | 'lookUp' | 'neverMade') =>
      `the replay has no recording of ${asked}: ${
        meaning === 'payment'
          ? 'nothing was sent, nothing paid'
          : meaning === 'neverMade'
            ? 'its Payment had none either, so it was never made'
            : 'nothing to answer it with'
      }`,
    noRecordingHint:
      'record it against the gateway with --record <dir>, or add --replay-fallback to let the sandbox answer',
    notRecorded: (problem: string) =>
      `a recording could not be written (${problem}); the exchanges went on, later ones were not recorded`,
    listening: 'replayed gateway listening on',
    faultWithoutFallback: (flag: string) =>
      `${flag} breaks only what the sandbox answers: add --replay-fallback, or leave ${flag} out to serve the recordings as recorded`,
    anyCredentials:
      "  any agent id and password will do; give agentpay the recorded gateway's code table (docs/configuration.md)",
    serving: (count: number, directory: string, fallback: boolean) =>
      `  replaying ${plural('en', count, { one: 'recording', other: 'recordings' })} from ${directory}; ${fallback ? 'the sandbox answers the rest' : 'anything else gets HTTP 404'}`,
  },

  /** doctor: render/doctor.ts. Setting keys, flags, codes and the gateway's Message stay as they are. */
  doctor: {
    settings: 'Settings (flag > env > profile > default)',
    /** A setting's name for a person, by its key; the key itself (the config file's word) where none. */
    settingNames: {} as Record<string, string>,
    sources: {
      flag: 'flag',
      env: 'env',
      profile: 'profile',
      default: 'default',
      sandbox: 'sandbox',
      replay: 'replay',
      prompt: 'prompt',
      unset: 'not set',
    } as Record<string, string>,
    /** A profile as a setting's origin: its name and the config file holding it. */
    profileIn: (name: string, path: string) => `${name} in ${path}`,
    none: '(none)',
    /** The words settings/report.ts puts in place of a value (kept so in --json), said for a person. */
    values: {
      '(the embedded sandbox)': '(the embedded sandbox)',
      '(the embedded replay)': '(the embedded replay)',
      '(asked for)': '(asked for)',
      direct: 'direct',
    } as Record<string, string>,
    notFoundSuffix: ' (not found)',
    gateway: 'Gateway',
    route: 'route',
    endpoint: 'endpoint',
    answered: (id: string, ms: number, status: string, message: string) =>
      `Status for ${id} answered in ${ms} ms: ResponseStatus ${status} ${message}`,
    verdicts: {
      notFound: 'not found, as expected for a made-up id',
      unclassified: "a code not in this gateway's table",
      failed: 'a code in failedCodes; a made-up id is normally "not found"',
      pending: 'a code in pendingCodes; a made-up id is normally "not found"',
      success: 'success for a made-up id: check the base URL',
    } as Record<'notFound' | 'unclassified' | 'failed' | 'pending' | 'success', string>,
    credentialsHint: 'if that message is about credentials, check the agent id and password',
    replaying: (recordings: number, directory: string) =>
      `${plural('en', recordings, { one: 'recording', other: 'recordings' })} from ${directory}; not asked: a made-up id has no recording`,
    suggest: (status: string, key: string) =>
      `ResponseStatus ${status} is not in ${key}. If, and only if, its Message means "no such transaction" (not a refusal of your credentials), add it:`,
    suggestProfile: 'profile:',
    suggestFlag: 'flag:',
    suggestEnv: 'env',
    untilThen: 'until then a payment Status cannot find stays "unknown", and reconcile never closes it as never made',
    ledger: 'Ledger',
    journalFile: 'ledger file',
    notMadeYet: ' (not made yet: the first payment makes it)',
    reached: (version: number) =>
      `reached; schema version ${version}${version === 0 ? ' (empty: set up on first use, or by `agentpay ledger migrate`)' : ''}`,
    waiting: (count: number) =>
      `${count} outcome${count === 1 ? '' : 's'} kept on this machine wait for the ledger: the next command that reaches it delivers them`,
  },

  /** pay --from-file (bulk top-ups): render/bulk.ts and commands/pay/bulk. */
  bulk: {
    line: (line: number) => `line ${wholeNumberText(line)}`,
    /** A column of the orders file, after its line: `line 4, amount: ...`. */
    column: (column: string) => `, ${column}`,
    andMore: (count: number) => `and ${count} more`,
    badRows: (where: string, count: number, named: string) =>
      `${where} has ${count === 1 ? '1 bad row' : `${count} bad rows`}, nothing was sent:${named}`,
    badRowsHint: 'fix the rows named and run the same command again; no payment was sent',
    /** A header naming a column no order has: the file refused for it alone, its rows unread. */
    unknownColumns: (where: string, columns: readonly UnknownName[]) =>
      `${where}: ${columns
        .map(
          ({ name, meant }) =>
            `unknown column ${JSON.stringify(name)}${meant === undefined ? '' : `: did you mean ${JSON.stringify(meant)}?`}`,
        )
        .join('; ')}; nothing was sent`,
    unknownColumnsHint: (columns: string) =>
      `the columns of an order are ${columns}: fix the header and run the same command again`,
    resultsFileHint:
      "free some space or fix the permissions of the results file's directory, then run the same command again: it resumes, and pays nothing twice",
    notUtf8Hint:
      'an order file is read as UTF-8 (a BOM is fine): if it was saved in another encoding, name it, as --encoding windows-1251 for Excel\'s Cyrillic "CSV (semicolon delimited)", and run the same command again; no payment was sent',
    lineGone: (line: number) => `line ${line} is gone`,
    changedRows: (input: string, results: string, named: string) =>
      `${input} changed since ${results} was written (${named}); refusing to guess which payments are which, nothing was sent`,
    otherPurchaseRows: (input: string, rows: readonly OtherPurchaseRow[]) =>
      `the ledger keeps TransactionIDs for this run of ${input} that it holds for other purchases (${rows
        .map(
          (row) => `line ${row.line}: ${row.transactionId} paid account ${row.account}, ${row.amount} ${row.currency}`,
        )
        .join('; ')}); someone wrote them there by hand: refusing, nothing was sent`,
    otherPurchaseRowsHint:
      "ask the ledger's administrator to look into those rows (agentpay_bulk_rows, agentpay_transactions) before this file is paid",
    changedRowsHint: (results: string) =>
      `run the original file again to finish it, or give the changed one a new --results file (the rows in ${results} may have been paid)`,
    planAmount: 'amount',
    planVoucher: (voucher: string, invoiceId: string) => `${voucher} (invoice ${invoiceId})`,
    already: (state: string) => `already ${state}`,
    service: (id: string) => `service ${id}`,
    account: (account: string) => `account ${account}`,
    rows: (count: number) => `${count} row${count === 1 ? '' : 's'}`,
    nothing: 'nothing',
    planSummary: (toPay: number, totals: string, done: number) =>
      `dry run: ${toPay} payment${toPay === 1 ? '' : 's'} would be sent (${totals})${done === 0 ? '' : `; ${done} already final, skipped`}; nothing was paid. Add --yes to pay.`,
    skipped: '(already final, skipped)',
    /** A row's state as the table and the summary name it (--json keeps the English word). */
    states: {
      success: 'success',
      failed: 'failed',
      pending: 'pending',
      unknown: 'unknown',
      'not-sent': 'not-sent',
      skipped: 'skipped',
    } as Record<'success' | 'failed' | 'pending' | 'unknown' | 'not-sent' | 'skipped', string>,
    progress: (done: number, total: number, failed: number, elapsed: string, left: string) =>
      ` ${done}/${total}  ${failed} failed  ${elapsed} elapsed  ${left} left`,
    skippedAs: (state: string) => `skipped, already ${state}`,
    paidAgainAs: (state: string) => `${state}, paid again (never made before)`,
    summary: (rows: number, stoppedBy: string | undefined, parts: string, notStarted: number) =>
      `${rows} row${rows === 1 ? '' : 's'}${stoppedBy === undefined ? '' : ` (stopped by ${stoppedBy})`}: ${parts || 'none done'}${notStarted === 0 ? '' : `; ${notStarted} not started`}`,
    summaryHint:
      'run the same command again to finish the file: final rows are skipped, open ones settled by Status, the rest paid with their same TransactionIDs',
    resume: (results: string, final: number, open: number, toPay: number) =>
      `resuming from ${results}: ${final} row${final === 1 ? '' : 's'} already final (skipped), ${open} open (settled by Status), ${toPay} to pay`,
    results: (path: string) => `results: ${path}`,
    resultsInUtf8: (path: string, charset: string) =>
      `${path} is written in UTF-8 with a BOM: the gateway's text holds characters ${charset} has not (kept whole)`,
    interrupt: (by: string) =>
      `${by}: no new rows start; the rows in flight settle (${by} again stops settling them, leaving them unknown)`,
    scriptNeedsYes: 'pay --from-file from a script pays only with --yes (stdin is not a terminal); nothing was sent',
    scriptNeedsYesHint: 'add --dry-run to see the plan, or --yes to pay it',
    stdinNeedsResults:
      '--from-file - needs --results <path>: where the TransactionIDs of the rows are kept for a later run',
    stdinTwice: 'stdin cannot hold both the password and the orders (--password-file - and --from-file -)',
    stdinTwiceHint: 'put the orders in a file, or the password in AGENTPAY_PASSWORD or a file of its own',
    stoppedStarting: (reason: string) => `${reason}: no new rows start; run the same command again once it is fixed`,
    goesWithFromFile: (flag: string) => `${flag} goes with --from-file <orders.csv|.jsonl|->`,
    notWithFromFile: (flag: string) => `${flag} does not go with --from-file: each row of the file names its own`,
    notWithFromFileHint: 'put it in a column of the file (docs/commands.md "pay --from-file")',
    cannotRead: (path: string, reason: string) => `cannot read --from-file ${path}: ${reason}`,
    changedWhileRead: (path: string) =>
      `--from-file ${path} changed while it was read: run again once it is written in whole; nothing was sent`,
    /** What is wrong with a row's cell or line (after "line N, column: "). */
    cell: {
      empty: 'is empty',
      spaces: (value: string) => `${JSON.stringify(value)} has spaces around it`,
      currency: (value: string) => `${JSON.stringify(value)} is not a three-letter code such as KZT or USD`,
      invoiceId: (value: string) => `${JSON.stringify(value)} is not an InvoiceId (digits, as in the check list)`,
      position: (value: string) => `${JSON.stringify(value)} is not a voucher's position (1 for Invoice-1)`,
      invoiceBoth: 'give invoice-id or invoice (a position), not both',
      amount: (value: string) => `${JSON.stringify(value)} is not a plain decimal such as 2497.00`,
      nothingToPay: 'give invoice-id (or invoice) for a dynamic voucher, or amount for a static one',
      zeroAmount: 'an amount of zero pays nothing: a static payment is more than zero',
      namedTwice: 'is named twice',
      headerNeeds: 'the header needs the columns service and account',
      cellCount: (cells: number, header: number) => `has ${cells} cells, the header ${header}`,
      notCsv: (reason: string) => `cannot be read as CSV: ${reason}`,
      noHeader: 'no header: the first line names the columns (service,account,invoice-id,...)',
      notObject: 'is not a JSON object',
      unknownField: (fields: string, meant: string | undefined) =>
        `is not a field of an order${meant === undefined ? '' : `: did you mean ${JSON.stringify(meant)}?`} (fields: ${fields})`,
      notString: 'must be a string (a JSON number loses digits: write "2497.00")',
      keyTwice: (key: string, first: number) => `${JSON.stringify(key)} is the key of line ${first} too`,
      noOrders: 'the file holds no orders',
      overLimit: (breaches: string) => `${breaches} (give --over-limit if it is right)`,
      duplicate: (payments: string) => `repeats ${payments} (give --allow-duplicate if it is meant)`,
      notUtf8: (byte: string, column: number) => `byte ${byte} at column ${column} is not UTF-8`,
      tooLong: (max: number) => `is longer than ${max} characters`,
      control: (code: string, position: number) => `holds the control character ${code} at character ${position}`,
      loneSurrogate: (code: string, position: number) =>
        `holds ${code} at character ${position}: half of a surrogate pair, not a character`,
      service: (value: string, digits: number) =>
        `${JSON.stringify(value)} is not a service id (digits, at most ${digits})`,
      amountDigits: (value: string, whole: number, fraction: number) =>
        `${JSON.stringify(value)} has more digits than an amount may (at most ${whole} before the point and ${fraction} after)`,
      fieldTwice: 'is given twice in the object: which one is meant would be a guess',
    },
  },
  /** Spreadsheet notation of CSV in and out: --delimiter, --decimal-comma, --encoding, DD.MM.YYYY dates. */
  sheet: {
    delimiter: (given: string) => `--delimiter ${JSON.stringify(given)} is not a delimiter: give , or ; or tab`,
    encoding: (given: string) => `--encoding ${JSON.stringify(given)} is not an encoding this program knows`,
    encodingHint: 'give a WHATWG encoding label, such as windows-1251, koi8-r, utf-16le or utf-8',
    notEncoded: (encoding: string) => `the file is not ${encoding}: some bytes have no character in it`,
    goesWithCsv: (flag: string) => `${flag} goes with --format csv`,
    goesWithCsvHint: (flag: string) => `add --format csv, or leave ${flag} out`,
    notADay: (flag: string, given: string) => `${flag} ${JSON.stringify(given)} is not a day`,
    dayHint: 'give a local date as YYYY-MM-DD or DD.MM.YYYY, such as 2026-11-22 or 22.11.2026, or today, yesterday',
    notADate: (flag: string, given: string) => `${flag} ${JSON.stringify(given)} is not a date`,
    dateHint: 'give 2026-11-21, 21.11.2026, 2026-11-21T08:00:00Z, or an age such as 30m, 12h, 7d',
  },
  /** scenario's human output: scenario/report-human.ts and commands/scenario. The English
   * forms of `expected`, `actual` and a step's made-up name are also what the report files
   * and --json keep (data: the same in every language). */
  scenario: {
    cases: (count: number) => plural('en', count, { one: 'case', other: 'cases' }),
    attempts: (count: number) => `, ${count} attempts`,
    ms: (ms: number) => `${ms} ms`,
    seconds: (ms: number) => `${(ms / 1000).toFixed(2)} s`,
    skipped: 'skipped',
    skippedCase: (why: string) => `skipped (${why})`,
    /** Where a failure is: `case "x", step 2 (pay "first")`. */
    where: (caseName: string, step: number, kind: string, id: string | undefined) =>
      `case ${JSON.stringify(caseName)}, step ${step} (${kind}${id === undefined ? '' : ` ${JSON.stringify(id)}`})`,
    failure: (path: string, expected: string, actual: string) => `${path}: expected ${expected}, actual ${actual}`,
    stepError: (reason: string, type: string, exitCode: number) => `${reason} (${type}, exit ${exitCode})`,
    failures: 'Failures:',
    /** How many of a data-driven case's runs failed so, and their rows (the first ten). */
    ofRuns: (count: number, runs: number, rows: readonly number[]) =>
      `${count} of ${plural('en', runs, { one: 'run', other: 'runs' })} (${count === 1 ? 'row' : 'rows'} ${rows.slice(0, 10).join(', ')}${count > 10 ? '…' : ''})`,
    summary: (
      cases: string,
      counts: { passed: number; failed: number; errors: number; skipped: number },
      time: string,
    ) =>
      `${cases}: ${counts.passed} passed, ${counts.failed} failed, ${counts.errors} errors, ${counts.skipped} skipped (${time})`,
    interrupted: 'interrupted: the steps after Ctrl+C did not run',
    /** What a check wanted, as the failure line says it. */
    expected: (wanted: Wanted): string => {
      switch (wanted.check) {
        case 'equals':
          return wanted.value;
        case 'not-equals':
          return `anything but ${wanted.value}`;
        case 'one-of':
          return `one of ${wanted.values.join(', ')}`;
        case 'type':
          return `a ${wanted.type}`;
        case 'matches':
          return `text matching /${wanted.pattern}/${wanted.error === undefined ? '' : ` (${wanted.error})`}`;
        case 'contains':
          return wanted.inList ? `a list holding ${wanted.value}` : `text containing ${wanted.value}`;
        case 'decimal-equals':
          return `the decimal ${wanted.value}`;
        case 'exists':
          return wanted.present ? 'present' : 'absent';
        case 'same-as':
          return `${en.scenario.actual(wanted.other)} (the ${wanted.path} of step ${wanted.step})`;
        case 'placeholder':
          return wanted.problem;
        case 'repeat':
          return `there is no payment ${JSON.stringify(wanted.of)} to repeat (a dry run, or a payment that could not be made, leaves none)`;
      }
    },
    /** What was there instead. */
    actual: (found: Found): string =>
      'absence' in found
        ? en.scenario.absence(found.absence)
        : found.type === undefined
          ? found.value
          : `a ${found.type}: ${found.value}`,
    /** Why a path leads to nothing. */
    absence: (absence: Absence): string =>
      ({
        missing: 'missing',
        null: 'null',
        listHas: `missing (the list has ${absence.length ?? 0})`,
        notList: 'missing (not a list)',
        eachNotList: 'not a list',
        emptyList: 'an empty list',
        notJsonString: `not a string holding JSON (${absence.type ?? ''})`,
        notJson: 'not JSON',
      })[absence.why],
    /** A step's name made up from its options, when the file gives it none. */
    step: {
      target: (service: string, account: string) => `${service} for ${account}`,
      check: (target: string) => `check ${target}`,
      raw: (amount: string, invoiceId: string | undefined) =>
        `raw ${amount}${invoiceId === undefined ? '' : ` for invoice ${invoiceId}`}`,
      invoice: (invoiceId: string) => `invoice ${invoiceId}`,
      position: (position: string) => `invoice #${position}`,
      amount: (amount: string, currency: string | undefined) =>
        `${amount}${currency === undefined ? '' : ` ${currency}`}`,
      pay: (what: string, target: string, dryRun: boolean) => `pay ${what} to ${target}${dryRun ? ' (dry run)' : ''}`,
      fresh: 'a fresh TransactionID',
      wait: (id: string) => `wait for ${id} to be final`,
      status: (id: string, wait: string | undefined) => `status ${id}${wait === undefined ? '' : ` --wait ${wait}`}`,
      repeatPay: (of: string) => `repeat-pay of ${of}`,
    },
    /** A placeholder that finds no value: `${text}` as written, and why. */
    placeholder: {
      each: (text: string) => `\${${text}}: [*] has no single value; name one element, such as [0]`,
      unknownRoot: (text: string, root: string) => `\${${text}}: nothing is called ${JSON.stringify(root)} here`,
      absent: (text: string, path: string, why: string) => `\${${text}}: ${path} is ${why}`,
    },
    /** Why a step is tried again: its payment's outcome is unknown (the gateway's or our words after it). */
    retryUnknown: (id: string, message: string | undefined) =>
      `the outcome of payment ${id} is unknown${message === undefined ? '' : ` (${message})`}`,
    retrying: (where: string, attempt: number, of: number, reason: string) =>
      `${where}: trying again (attempt ${attempt} of ${of}): ${reason}`,
    reportWritten: (format: 'junit' | 'html', path: string) =>
      `${format === 'junit' ? 'JUnit' : 'HTML'} report written to ${path}`,
    stopped: (by: string) => `interrupted: the scenario stopped after ${by}; payments made so far are in the ledger`,
    notPassed: (bad: number, total: number) => `${bad} of ${total} cases did not pass`,
    outcomeUnknown:
      "every case passed, but a payment's outcome is unknown: it is in the ledger for `agentpay reconcile`",
    noFiles: 'give at least one scenario file',
    oneReportOnStdout: 'only one --report can go to stdout (-); give the others a path',
    reportFormat: '--report takes junit:<path> or html:<path>, such as junit:reports/conformance.xml (- for stdout)',
    cannotReadFile: (path: string, reason: string) => `cannot read the scenario file ${path}: ${reason}`,
    cannotReadData: (path: string, reason: string) => `cannot read the data file ${path}: ${reason}`,
    nothingSent: 'nothing was sent',
    fileFormatHint: 'see docs/scenarios.md for the file format; nothing was sent',
    dataHint: 'see docs/scenarios.md#data-driven-scenarios; nothing was sent',
  },
  /** Errors and notes of the commands that have no section of their own to say them in. */
  commands: {
    sandboxFault: {
      garbage: (kind: string) => `every request is processed, then answered with garbage: ${kind}`,
      latency: (ms: number) => `every answer waits ${ms} ms`,
      drop: (count: number) =>
        `the next ${plural('en', count, { one: 'Payment answer is', other: 'Payment answers are' })} dropped after commit`,
      failRate: (share: string) => `${share} of committed Payments are answered with HTTP 500`,
    },
    fault: (line: string) => `fault: ${line}`,
    cannotListen: (where: string, reason: string) => `cannot listen on ${where}: ${reason}`,
    cannotListenHint: 'choose another --port (0 picks a free one)',
    cannotOpenSandboxState: (path: string, reason: string) => `cannot open the sandbox state ${path}: ${reason}`,
    cannotOpenSandboxStateHint: 'give --state a new file or a SQLite database the sandbox wrote',
    cannotOpenEmbeddedStateHint: 'move that file away: --sandbox starts a new one (it holds only play money)',
    notABreak: (rule: string, rules: string) =>
      `--break ${JSON.stringify(rule)} is not a rule the sandbox can break: give ${rules}`,
    /** A flag that takes a whole number: of what, and between which bounds. */
    wholeNumber: (flag: string, unit: NumberUnit | undefined, range?: { min: number; max: number }) =>
      `${flag} takes a whole number${unit === undefined ? '' : ` of ${{ milliseconds: 'milliseconds', payments: 'payments', polls: 'Status polls', seconds: 'seconds', columns: 'columns' }[unit]}`}${range === undefined ? '' : ` from ${range.min} to ${range.max}`}`,
    numberFromTo: (flag: string, from: string, to: string, example?: string) =>
      `${flag} takes a number from ${from} to ${to}${example === undefined ? '' : `, such as ${example}`}`,
    oneOf: (flag: string, choices: string) => `${flag} takes one of: ${choices}`,
    idsAsText: 'transaction ids must be text',
    noIds: 'give at least one transaction id, or --from-file <path|->',
    stdinTwice: 'stdin cannot hold both the password and the ids (--password-file - and --from-file -)',
    stdinTwiceHint: 'put the ids in a file for --from-file, or the password in AGENTPAY_PASSWORD or a file of its own',
    cannotReadFromFile: (path: string, reason: string) => `cannot read --from-file ${path}: ${reason}`,
    receiptWhich: 'give the TransactionID of the receipt: agentpay receipt <txn-id>',
    owner: (gateway: string, agentId: string | undefined) =>
      agentId === undefined ? gateway : `${gateway} agent ${agentId}`,
    chooseGatewayHint: 'name the gateway: --base-url <url> --agent-id <id> (or a --profile), or --sandbox',
    inLedgerForMany: (id: string, count: number, owners: string) =>
      `transaction ${id} is in the ledger for ${count} gateways (${owners}): which one is meant?`,
    inLedgerForOther: (id: string, owner: string, held: string) =>
      `transaction ${id} is not in the ledger for ${owner}; it is for ${held}`,
    notInLedger: (id: string, ledger: string) => `transaction ${id} is not in the ledger ${ledger}`,
    notInLedgerHint: 'check the TransactionID with agentpay history, and the ledger with agentpay doctor',
    jsonIsFormat: (given: string) => `--json is --format json: give one of --json and --format ${given}`,
    gatewayFilter: '--gateway takes a base URL or sandbox',
    dateOrRange: '--date is a whole day: give it, or --since and --until, not both',
    emptyRange: (since: string, until: string | undefined) =>
      `--since ${since} is not before --until ${until ?? '(now)'}: the range is empty`,
    emptyRangeHint: 'give --since earlier than --until',
    byChoices: (given: string, choices: string) => `--by ${JSON.stringify(given)} is not one of: ${choices}`,
    notAFile: (path: string) => `${path} is not a file`,
    notAFileHint: 'give the journal file itself (journal.jsonl)',
    postgresOnly: (what: string, journal: string) =>
      `ledger ${what} is for a PostgreSQL ledger (--ledger postgres://user@host/database, AGENTPAY_LEDGER or the profile key ledger); the ledger here is the file ${journal}`,
    caUnreadable: (path: string, where: string, reason: string) =>
      `cannot read the CA file ${path} (${where}): ${reason}`,
    caNoCertificate: (path: string, where: string) => `the CA file ${path} (${where}) holds no PEM certificate`,
    caHint: 'give a file with -----BEGIN CERTIFICATE----- blocks',
    profileKey: (key: string) => `profile ${key}`,
    passwordUnreadable: (path: string, where: string, reason: string) =>
      `cannot read the password file ${path} (${where}): ${reason}`,
    passwordEmpty: (path: string, where: string) => `the password file ${path} (${where}) is empty`,
    passwordWorldReadable: (path: string, where: string, mode: string) =>
      `the password file ${path} (${where}) can be read by anyone (mode ${mode}); refusing to use it`,
    passwordWorldReadableHint: (path: string) =>
      `run: chmod 600 ${path}  (or pass --insecure-password-file to use it anyway)`,
    passwordGroupReadable: (path: string, where: string, mode: string) =>
      `the password file ${path} (${where}) can be read by its group (mode ${mode}); run: chmod 600 ${path}`,
    receiptLeftOut: (reason: string) =>
      `the receipt leaves out the voucher, the operator and the time: the ledger cannot be read (${reason})`,
    receiptNotWritten: (path: string, id: string) =>
      `no receipt written to ${path}: the ledger holds no payment ${id} for this purchase`,
    receiptCannotWrite: (path: string, reason: string, id: string | undefined) =>
      `cannot write the receipt to ${path} (${reason})${id === undefined ? '' : `; the payment stands, and \`agentpay receipt ${id}\` prints its receipt`}`,
    scenarioLive: (profile: string) =>
      `scenario runs its payments unattended: through the live profile ${JSON.stringify(profile)} it needs --yes; nothing was sent`,
    scenarioLiveHint: (otherWays: string) => `add --yes if the scenario is meant for the live gateway, ${otherWays}`,
  },

  /** The config file (settings/config-file.ts) and its profiles (settings/resolve.ts). */
  config: {
    cannotRead: (path: string, reason: string) => `cannot read the config file ${path}: ${reason}`,
    notJson: (path: string, place: { line: number; column: number } | undefined) =>
      `the config file ${path} is not valid JSON${place ? ` (line ${place.line}, column ${place.column})` : ''}`,
    notJsonHint: (path: string) => `check it with: jq . ${path}`,
    notValid: (path: string, at: string, expected: string, got: string | undefined) =>
      `the config file ${path} is not valid: ${at}: expected ${expected}${got === undefined ? '' : `, got ${got}`}`,
    notValidHint:
      'it holds {"profiles": {"default": {"baseUrl", "agentId", "passwordFile", "passwordFormat", ...}}} (docs/configuration.md)',
    readableByOthers: (path: string, mode: string) =>
      `the config file ${path} holds a password and can be read by group or others (mode ${mode}); run: chmod 600 ${path}`,
    /** Where in the file: the file as a whole (other places are paths such as profiles.default.timeout). */
    theFile: 'the file',
    expected: {
      text: 'text',
      textOrNumber: 'text or a number',
      trueOrFalse: 'true or false',
      amountsPerCurrency: 'amounts per currency, as {"KZT": "50000.00"}',
      servicesById:
        'services by id, as {"101": "GameCoins top-up"} or {"601": {"name": "Cinema voucher", "kind": "static"}}',
      codeList: 'codes as text ("11,12") or a list ([11, "12"])',
      oneOf: (choices: string) => `one of ${choices}`,
      settings: 'an object of settings',
      knownKey: (keys: string) => `a known key instead (${keys})`,
      profilesObject: 'an object {"profiles": {...}}',
      onlyProfiles: 'only the key "profiles" at the top',
      namedProfiles: 'an object of named profiles',
    },
    got: { null: 'null', list: 'a list', object: 'an object', text: 'text', number: 'number', boolean: 'boolean' },
    noProfile: (name: string, path: string) => `profile ${JSON.stringify(name)} is not in ${path}`,
    profilesThere: (names: string) => `profiles there: ${names}`,
    noProfiles: 'none',
    createOrDrop: 'create the file or drop --profile',
  },
};

export type Catalogue = typeof en;
export { en };
