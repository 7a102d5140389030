import type { FieldProblem, InvalidFieldError } from '../protocol/problems.js';
import { wholeNumberText } from '../whole-number-text.js';
import type { Catalogue, StorageAction } from './en.js';
import { type PluralForms, plural } from './plural.js';

/** The human text in Russian, typed by en.ts: a key it lacks fails the type-check. Names the
 * spec gives (TransactionID, InvoiceId, ResponseStatus, Status, AccountCheck), flags, codes and
 * the gateway's own Messages stay as they are. */

const nbsp = '\u00a0';

/** `04.03.2025`: a day as a Russian receipt, history and report write it. */
const localDay = (date: { year: string; month: string; day: string }) => `${date.day}.${date.month}.${date.year}`;

/** `1500.00` -> `1 500,00`: digits grouped by threes, a decimal comma; every digit kept. */
function amount(decimal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (match === null) return decimal;
  const [, sign = '', whole = '', fraction] = match;
  const grouped = whole.length > 4 ? whole.replace(/\B(?=(\d{3})+$)/g, nbsp) : whole;
  return `${sign}${grouped}${fraction === undefined ? '' : `,${fraction}`}`;
}

/** Как сообщение называет сигнал, остановивший команду. */
const signalText = (signal: 'SIGINT' | 'SIGTERM') => (signal === 'SIGINT' ? 'Ctrl+C (SIGINT)' : 'SIGTERM');
/** A count grouped as amounts are (12 345, from five digits on), and its noun in the form the count wants. */
const whole = (n: number) => amount(String(n));
const counted = (n: number, forms: PluralForms) => plural('ru', n, forms).replace(/^\d+/, whole(n));
const vouchers = (count: number) =>
  plural('ru', count, { one: 'ваучер', few: 'ваучера', many: 'ваучеров', other: 'ваучера' });
const times = (count: number) => plural('ru', count, { one: 'раз', few: 'раза', many: 'раз', other: 'раза' });
const characters = (count: number) =>
  plural('ru', count, { one: 'символ', few: 'символа', many: 'символов', other: 'символа' });

/** Commander's error lines (English in commander 14), said in Russian; anything else as it came. */
/** An argument as help names it (`<оболочка>`), by its definition's name. */
const argumentName = (name: string) => ru.help.argumentNames[name] ?? name;
/** A flag's value as help names it (`<счёт>`), word by word. */
const valueName = (value: string) => value.replace(/[\w-]+/g, (word) => ru.help.valueNames[word] ?? word);
type Replacement = string | ((match: string, ...groups: string[]) => string);
const commanderErrors: [RegExp, Replacement][] = [
  [/^error: unknown option '(.+?)'/m, "ошибка: неизвестный флаг '$1'"],
  [/^error: unknown command '(.+?)'/m, "ошибка: неизвестная команда '$1'"],
  [/^error: option '(.+?)' argument missing/m, "ошибка: у флага '$1' нет значения"],
  [/^error: required option '(.+?)' not specified/m, "ошибка: не задан обязательный флаг '$1'"],
  [
    /^error: missing required argument '(.+?)'/m,
    (_, name: string) => `ошибка: не хватает обязательного аргумента '${argumentName(name)}'`,
  ],
  [
    /^error: too many arguments(?: for '(.+?)')?\. Expected (\d+) arguments? but got (\d+)\./m,
    'ошибка: слишком много аргументов (ожидалось $2, получено $3)',
  ],
  [
    /^error: option '(.+?)' argument '(.*?)' is invalid\. Allowed choices are (.+)\./m,
    "ошибка: недопустимое значение '$2' флага '$1'; допустимы: $3",
  ],
  [/^error: option '(.+?)' argument '(.*?)' is invalid\./m, "ошибка: недопустимое значение '$2' флага '$1'."],
  [
    /^error: command-argument value '(.*?)' is invalid for argument '(.+?)'\. Allowed choices are (.+)\./m,
    (_, value: string, name: string, allowed: string) =>
      `ошибка: недопустимое значение '${value}' аргумента '${argumentName(name)}'; допустимы: ${allowed}`,
  ],
  [/\(Did you mean one of (.+?)\?\)/, '(Может быть, имелось в виду одно из: $1?)'],
  [/\(Did you mean (.+?)\?\)/, '(Может быть, $1?)'],
  [/^error: /m, 'ошибка: '],
];

/** The fields the protocol core names in words rather than as a flag (`--amount`), in Russian. */
const fieldNames: Record<string, string> = { 'transaction id': 'TransactionID', 'the amount': 'сумма' };

/** A field the protocol core refused, said in Russian from its problem; its English message when it has none. */
function fieldProblem({ field, problem, message }: InvalidFieldError): string {
  if (problem === undefined) return message;
  const shown = JSON.stringify(problem.value);
  const says: Record<FieldProblem['kind'], string> = {
    empty: 'пусто: укажите простое десятичное число, например 2497.00',
    comma: `${shown} с запятой: пишите через точку, как ${problem.value.replace(',', '.')}`,
    ambiguousGrouping: `${shown}: запятая здесь может отделять и тысячи, и дробную часть; напишите ${problem.value.replace(',', '')} или ${problem.value.replace(',', '.')}`,
    bothSeparators: `${shown}: в сумме и точка, и запятая; оставьте один десятичный разделитель, как в 1500,50`,
    badGrouping: `${shown}: цифры сгруппированы неровно; пишите 1500,50 или 1 500,50 (группы по три цифры)`,
    negative: `${shown} отрицательно: суммы — простые неотрицательные десятичные числа`,
    spaces: `${shown} с пробелами вокруг: укажите только цифры`,
    leadingZero: `${shown} с ведущим нулём: пишите без него, как ${problem.value.replace(/^0+(?=\d)/, '')}`,
    notPlainDecimal: `${shown} — не простое десятичное число вроде 2497.00 (цифры и не больше одной точки; без экспоненты, знака и hex)`,
    notCurrency: `${shown} — не трёхбуквенный код вроде KZT или USD`,
    tooLarge: `${shown} слишком велик: TransactionID должен помещаться в знаковый 64-битный Long`,
    notTransactionId: `${shown} недопустим: TransactionID — только цифры, без знака, точки и ведущего нуля`,
  };
  return `${fieldNames[field] ?? field} ${says[problem.kind]}`;
}

/** What could not be done with a local file, as LocalStorageError names it. */
const localStorageActions: Record<StorageAction, string> = {
  'read the journal': 'прочитать журнал',
  'open the ledger': 'открыть журнал',
  'read the ledger': 'прочитать журнал',
  'write the ledger': 'записать журнал',
  'write the journal': 'записать журнал',
  "read the journal's directory": 'прочитать каталог журнала',
  "read the journal's archive": 'прочитать архив журнала',
  'read the journal cut': 'прочитать срез журнала',
  'read the results file': 'прочитать файл результатов',
  'write the results file': 'записать файл результатов',
  'write the ledger fallback file': 'записать запасной файл журнала',
  'take the ledger fallback file': 'забрать запасной файл журнала',
  'remove the delivered ledger fallback file': 'удалить доставленный запасной файл журнала',
  'write the metrics file': 'записать файл метрик',
};

const ru: Catalogue = {
  locale: 'ru',
  amount,
  amountNotation: 'comma',
  number: amount,
  localDay,
  localTime: (date) => `${localDay(date)} ${date.time}${date.offset === undefined ? '' : ` ${date.offset}`}`,
  yes: 'да',
  no: 'нет',

  boundary: {
    internalError: 'внутренняя ошибка: ',
    internalErrorHint:
      'это ошибка в agentpay; если шла оплата, платёж мог пройти: выполните `agentpay reconcile`, прежде чем платить снова',
    firstBytes: 'первые байты ответа:',
    warning: 'внимание:',
  },

  help: {
    program: 'Пополнение счетов клиентов и покупка ваучеров через платёжный шлюз агента.',
    programUsage: '[флаги] <команда>',
    version: 'показать номер версии',
    help: 'показать справку по команде',
    helpCommand: 'показать справку по команде',
    summaries: {
      check: 'ваучеры услуги для счёта (AccountCheck)',
      pay: 'оплатить ваучер или сумму, один раз',
      buy: 'пополнение в диалоге в терминале',
      status: 'найти транзакции по TransactionID (Status)',
      reconcile: 'довести открытые платежи; сверить с реестром провайдера',
      history: 'журнал: последнее состояние каждого платежа',
      report: 'число и точные суммы за день или период',
      receipt: 'напечатать чек транзакции из журнала',
      approvals: 'покупки, которые ждут одобрения старшего кассира',
      approve: 'одобрить запрос другого оператора (старший кассир)',
      decline: 'отклонить запрос другого оператора (старший кассир)',
      shift: 'открыть и закрыть смену, X- и Z-отчёты (общий журнал)',
      ledger: 'обслуживание журнала: загрузка, выгрузка, общий журнал',
      doctor: 'показать настройки и их источники, затем проверить шлюз',
      scenario: 'выполнить файлы сценариев против шлюза',
      sandbox: 'запустить шлюз-песочницу на переднем плане',
      completion: 'напечатать скрипт дополнения по Tab (bash, zsh, fish)',
    },
    commonOptions: 'Частые флаги:',
    examplesTitle: 'Примеры:',
    examples: {
      buy: 'выбрать и оплатить в песочнице',
      check: 'ваучеры',
      pay: 'платёж',
      status: 'спросить шлюз',
      help: 'флаги команды',
    },
    moreOptions: 'Все общие флаги (шлюз, журнал, лимиты, сеть): agentpay help options',
    optionsCommand: 'все общие флаги, с переменными окружения и значениями по умолчанию',
    titles: {
      'Usage:': 'Использование:',
      'Options:': 'Флаги:',
      'Commands:': 'Команды:',
      'Arguments:': 'Аргументы:',
      'Global Options:': 'Общие флаги:',
    },
    choices: 'варианты',
    // Quoted, as values typed: «,», «;», «tab» (unquoted, a comma value reads as a separator).
    choice: (value) => `«${value}»`,
    default: 'по умолчанию',
    env: 'переменная',
    optionsTerm: '[флаги]',
    argumentNames: {
      command: 'команда',
      file: 'файл',
      journal: 'журнал',
      shell: 'оболочка',
      'txn-id': 'id',
      role: 'роль',
    },
    valueNames: {
      account: 'счёт',
      char: 'символ',
      code: 'код',
      column: 'столбец',
      columns: 'столбцы',
      currencies: 'валюты',
      date: 'дата',
      day: 'день',
      decimal: 'сумма',
      digits: 'цифры',
      dimension: 'измерение',
      dir: 'каталог',
      file: 'файл',
      format: 'формат',
      host: 'хост',
      kind: 'вид',
      label: 'метка',
      lang: 'язык',
      limits: 'лимиты',
      list: 'список',
      ms: 'мс',
      name: 'имя',
      number: 'номер',
      path: 'путь',
      pem: 'PEM',
      port: 'порт',
      rows: 'строки',
      rule: 'правило',
      seconds: 'секунды',
      span: 'промежуток',
      state: 'состояние',
      text: 'текст',
      time: 'время',
      'txn-id': 'id',
      url: 'URL',
      'base-url': 'базовый-URL',
      value: 'значение',
    },
    afterError: '(agentpay --help покажет команды и флаги)',
    usageAfterError: (command, usage) =>
      `использование: agentpay ${command} ${usage}  (подробнее: agentpay ${command} --help)`,
    commanderError: (text) =>
      commanderErrors
        .reduce(
          (said, [pattern, replacement]) =>
            typeof replacement === 'string' ? said.replace(pattern, replacement) : said.replace(pattern, replacement),
          text,
        )
        // A flag as commander quotes it, `'--account <account>'` (`<счёт>` in help): its value named as help names it.
        .replace(/'(--[\w-]+) <([^>]+)>'/g, (_, flag: string, value: string) => `'${flag} <${valueName(value)}>'`),
  },

  errors: {
    cancelled: 'отменено',
    cancelledNothingPaid: 'отменено: ничего не оплачено',
    cancelledDuplicate: 'отменено: ничего не оплачено (такое же пополнение было недавно)',
    noPaymentSent: 'платёж не отправлялся',
    outcomeUnknown: (id, reason) => `исход платежа ${id} неизвестен: ${reason}`,
    outcomeUnknownHint: (id, retry) =>
      `он мог пройти и сохранён в журнале; узнайте его через \`agentpay status ${id}\` или доведите через \`agentpay reconcile\`${retry === undefined ? '' : `; чтобы повторить без двойной оплаты: \`${retry.command}\`${retry.masked ? ' (впишите пароль вместо ***)' : ''}`}`,
    ledgerUnreachable: (ledger, reason) => `журнал ${ledger} недоступен (${reason})`,
    ledgerUnreachableHint:
      'проверьте, что сервер базы данных работает, а URL, пользователь и пароль верны (`agentpay doctor` покажет их, пароль как ***)',
    localStorage: (what, path, reason) => `не удалось ${localStorageActions[what]} ${path} (${reason})`,
    fileReason: (code) => {
      const words: Readonly<Record<string, string>> = {
        ENOENT: 'нет такого файла',
        EACCES: 'доступ запрещён',
        EPERM: 'доступ запрещён',
        EISDIR: 'это каталог',
        ENOTDIR: 'часть пути — не каталог',
      };
      return Object.hasOwn(words, code) ? `${words[code]} (${code})` : code;
    },
    localStorageHints: {
      EROFS:
        'файловая система смонтирована только для чтения: перемонтируйте её на запись или выберите другой журнал через --ledger',
      ENOSPC: 'диск (или квота) заполнен: освободите место или выберите другой журнал через --ledger',
      EACCES: 'этому пользователю нельзя работать с файлом: исправьте права или выберите другой журнал через --ledger',
      EISDIR: 'этот путь — каталог: укажите сам файл журнала через --ledger',
      other: 'исправьте файл или выберите другой журнал через --ledger',
    },
    stoppedEarly:
      'команда остановилась, не закончив (ждать было больше нечего); если шла оплата, выполните `agentpay reconcile`',
    stopped: (signal) => `остановлено по ${signalText(signal)}, команда не закончена`,
    stoppedNothingPaid: (signal) => `остановлено по ${signalText(signal)} до платежа: ничего не оплачено`,
    stoppedReconcile: (signal, recorded) =>
      `остановлено по ${signalText(signal)}: уже полученные исходы (${recorded}) записаны в журнал и показаны выше; для остальных снова выполните \`agentpay reconcile\``,
    stoppedAtOnce: (signal) =>
      `остановлено сразу, по третьему ${signalText(signal)}; если шла оплата, выполните \`agentpay reconcile\`, прежде чем платить снова`,
  },

  options: {
    required: (flag) => `нужен ${flag}`,
    notEmpty: (flag) => `${flag} не может быть пустым`,
    takesText: (flag) => `${flag} принимает текстовое значение`,
    badText: (flag, problem) => `${flag} ${problem}; ничего не отправлено`,
    isSwitch: (flag) => `${flag} — переключатель, значение ему не нужно`,
    invoiceIdDigits: '--invoice-id должен состоять из цифр, как в списке check',
    invoiceOrAmount: 'укажите --invoice-id <id> для динамического ваучера или --amount <сумма> для статического',
    zeroAmount: '--amount, равный нулю, ничего не оплачивает: статический платёж больше нуля; ничего не отправлено',
    field: fieldProblem,
  },

  settings: {
    noGateway: 'шлюз не задан',
    noGatewayHint: 'укажите --base-url <URL> или AGENTPAY_BASE_URL, выберите --profile или попробуйте --sandbox',
    noAgentId: 'id агента не задан',
    noAgentIdHint: 'укажите --agent-id <id> или AGENTPAY_AGENT_ID, или выберите --profile',
    notSet: (parts) => {
      const named = {
        gateway: 'шлюз (--base-url <URL> или AGENTPAY_BASE_URL)',
        agentId: 'id агента (--agent-id <id> или AGENTPAY_AGENT_ID)',
        password: 'пароль агента (AGENTPAY_PASSWORD или --password-file <путь>)',
      };
      const words = parts.map((part) => named[part]);
      return `не заданы: ${words.slice(0, -1).join(', ')} и ${words.at(-1)}`;
    },
    notSetHint: 'задайте каждое, как показано, или выберите --profile, где они есть; или попробуйте --sandbox',
    sandboxAndBaseUrl: '--sandbox и --base-url нельзя указывать вместе',
    dropOne: 'уберите один из них',
    playLedgerFlag: (mode) => `${mode} ведёт свой собственный журнал: --ledger (--journal) с ним указать нельзя`,
    playLedgerFlagHint: (mode) =>
      `уберите его: ${mode} держит игровые платежи вне настоящего учёта, в $XDG_STATE_HOME/agentpay (для отдельного журнала задайте другой XDG_STATE_HOME)`,
    noPassword: 'пароль агента не задан',
    noPasswordEntered: 'пароль не введён',
    passwordPrompt: 'Пароль агента',
    noPasswordHint:
      'задайте AGENTPAY_PASSWORD, или укажите --password-file <путь> (- читает stdin), или профиль; или попробуйте --sandbox',
    where: (where) =>
      ({ flag: 'флаг', env: 'переменная окружения', profile: 'профиль', default: 'по умолчанию' })[where] ?? where,
    yesOrNo: (shown, where) => `${shown} (${where}): нужно true или false`,
    amounts: {
      notAmounts: 'ожидались суммы по валютам',
      notCurrency: (currency) => `${JSON.stringify(currency)} — не трёхбуквенный код валюты`,
      notDecimal: (currency, number) =>
        `сумма ${currency === undefined ? 'для любой валюты' : `в ${currency}`} должна быть простым десятичным числом вроде "50000.00"${number ? ', записанным текстом' : ''}`,
      twice: (currency) => `${currency} указана дважды`,
      profileHint: 'запишите её как {"KZT": "50000.00"}',
      flagHint: 'укажите KZT=50000.00 (несколько: KZT=50000.00,USD=100) или одну сумму для любой валюты',
    },
    notDuration: (name, shown, where) => `${name} ${shown} (${where}) — не промежуток времени`,
    durationHint: 'укажите 30s, 10m или 1h (0 или off — без него)',
    wholeNumber: (name, shown, where, min, max, unit) =>
      `${name} ${shown} (${where}): нужно целое число${unit === undefined ? '' : ' миллисекунд'} от ${min} до ${max}`,
    oneOf: (name, shown, where, allowed) => `${name} ${shown} (${where}): нужно одно из: ${allowed}`,
    codeNotInteger: (key, code, where) => `${key}: код ${JSON.stringify(code)} (${where}) — не целое число`,
    codeTen: (key, where) => `${key} (${where}) не может включать 10: это успех (spec 7)`,
    agentIdDigits: (shown, where) => `id агента ${shown} (${where}) должен состоять только из цифр, без ведущего нуля`,
    url: {
      names: { base: 'базовый URL', proxy: 'прокси' },
      notUrl: (what, shown, where) => `${what} ${shown} (${where}) — не URL`,
      scheme: (what, shown, where) => `${what} ${shown} (${where}) должен начинаться с http:// или https://`,
      queryOrFragment: (shown, where) => `базовый URL ${shown} (${where}) не должен содержать запрос или фрагмент`,
      credentials: (where) => `базовый URL (${where}) не должен содержать имя пользователя или пароль`,
      credentialsHint: 'шлюз принимает AgentID и AgentPassword полями формы: уберите часть `user:password@`',
      homeIndex: (shown, where) =>
        `базовый URL ${shown} (${where}) оканчивается на /home/index, а его agentpay добавляет сам`,
      give: (example) => `укажите ${example}`,
      giveAs: (url) => `укажите его как https://${url} (или http://)`,
      giveOne: (example) => `укажите, например, ${example}`,
    },
    ledgerPasswordOnCommandLine: (flag) =>
      `в URL ${flag} есть пароль, а его видит в \`ps\` любой пользователь этой машины: храните его в PGPASSWORD или ~/.pgpass либо задайте URL в AGENTPAY_LEDGER`,
  },

  gateway: {
    unreachable: (endpoint, reason) => `не удалось связаться со шлюзом ${endpoint}: ${reason}`,
    timedOut: (endpoint, reason) => `шлюз ${endpoint} не ответил вовремя: ${reason}`,
    noPaymentSentSuffix: '; платёж не отправлялся',
    caHint: 'если у шлюза частный CA, укажите его сертификат через --ca-file <PEM> (или AGENTPAY_CA_FILE)',
    timeoutHint: 'попробуйте позже или дайте больше времени через --timeout <мс>',
    networkHint: (route) => `проверьте --base-url${route ? `, прокси (${route})` : ''} и сеть, затем попробуйте снова`,
    unavailable: (status) => `шлюз недоступен (HTTP ${status})`,
    tryLater: 'попробуйте позже',
    answeredHttp: (status) => `шлюз ответил HTTP ${status}`,
    notUnderstood: (reason) => `ответ не удалось разобрать: ${reason}`,
    answerNotUnderstood: (reason) => `ответ шлюза не удалось разобрать: ${reason}`,
    answeredHttpNotEnvelope: (status, text, reason) =>
      `шлюз вернул HTTP ${status} вместо ответа протокола: ${text === undefined ? reason : `«${text}»`}`,
    verboseHint: 'запустите с --verbose, чтобы увидеть первые байты ответа',
    failures: {
      couldNotConnectWithin: (ms) => `не удалось подключиться за ${ms} мс`,
      noAnswerWithin: (ms) => `полного ответа нет за ${ms} мс`,
      proxyTunnel: (status) => `прокси отказался открыть туннель к шлюзу (HTTP ${status})`,
      proxyAuth: 'прокси требует учётные данные (HTTP 407): добавьте их в URL прокси',
      interrupted: 'прервано до прихода ответа',
      certificate: (otherHost, code) =>
        `сертификат TLS ${otherHost ? 'выдан для другого имени хоста' : 'не вызывает доверия'} (${code}); ничего не отправлялось`,
      refused: 'в соединении отказано',
      hostNotFound: 'имя хоста не найдено',
      closed: 'соединение закрылось до прихода ответа',
      timedOutConnected: 'время соединения истекло до прихода ответа',
      timedOutConnecting: 'не удалось подключиться (время истекло)',
      notHttp: (code) => `ответ — не корректный HTTP (${code})`,
    },
  },

  purchase: {
    noMessage: 'без сообщения',
    checkRefused: (message, status) => `шлюз отказал в проверке счёта: ${message} (ResponseStatus ${status})`,
    checkRefusedHint:
      'проверьте --service, --account и --currency; если сообщение про id агента или пароль, проверьте их через `agentpay doctor`',
    checkRefusedNothingSent: (message, status) =>
      `шлюз отказал в проверке счёта, поэтому платёж не отправлялся: ${message} (ResponseStatus ${status})`,
    emptyList: (service, account) => `список ваучеров услуги ${service} для счёта ${account} сейчас пуст`,
    emptyListHint: 'у шлюза сейчас нет ваучеров для этого счёта: попробуйте позже или другой счёт или услугу',
    invoiceNotInList: (wanted, service) =>
      `${'invoiceId' in wanted ? `ваучера с InvoiceId ${wanted.invoiceId}` : `ваучера №${wanted.position}`} нет в списке ваучеров услуги ${service}`,
    invoiceIdsThere: (known) => `InvoiceId в списке: ${known}`,
    invoiceTwice: (invoiceId, service, amounts) =>
      `InvoiceId ${invoiceId} в списке ваучеров услуги ${service} у нескольких ваучеров (${amounts})`,
    invoiceTwiceHint: 'укажите --amount с OrderAmount нужного ваучера (в строке файла — столбец amount)',
    noListPayWithAmount: 'у услуги нет списка ваучеров: оплатите её через --amount',
    amountNotOrderAmount: (given, invoiceId, orderAmount, flag) =>
      `${flag === undefined ? '' : `${flag} `}${given} не совпадает с OrderAmount ваучера с InvoiceId ${invoiceId}, ${orderAmount}`,
    amountsMustMatch: (orderAmount) =>
      `суммы должны совпадать до последней цифры (spec 4.2): уберите --amount или укажите ${orderAmount}`,
    refused: (id, message, status) => `шлюз отказал в транзакции ${id}: ${message} (ResponseStatus ${status})`,
    pending: (id, status) => `транзакция ${id} ещё в обработке (ResponseStatus ${status})`,
    pendingHint: (id) => `следите за ней: agentpay status --wait 120 ${id}`,
    lookUpRefused: (said) => `шлюз отказал в самом запросе (${said}), а это ничего не говорит о платеже`,
    lookUpRefusedHint: 'проверьте id агента и пароль через `agentpay doctor`, затем запросите снова',
    notFound: (said) => `не найдена на шлюзе (${said})`,
    notFoundHint: (id) =>
      `платёж, сделанный только что, мог ещё не дойти: запросите снова через \`agentpay status ${id}\`; \`agentpay reconcile\` закроет записанный в журнал платёж как несостоявшийся, когда он станет старше --grace`,
    unclassified: (said) => `шлюз ответил ${said}: этот код для шлюза не классифицирован, поэтому исход не окончателен`,
    unclassifiedHint: (classify) =>
      `${classify}; до тех пор платёж остаётся открытым, и \`agentpay reconcile\` спросит шлюз снова`,
    replay: (id, at, differing) =>
      `транзакция ${id} уже использована ${at} для другой покупки (${differing}); ничего не отправлялось`,
    replayHint: (differing) =>
      `чтобы безопасно повторить прежнюю покупку, повторите её в точности (${differing}); только для нового, отдельного платежа уберите --txn-id`,
    none: 'нет',
    notSentOnDisk: (hint) => `платёж отправляется только после записи намерения на диск; ${hint}`,
    meaning: { pending: 'в обработке', notFound: 'не найдена', unclassified: 'не классифицирован' },
    answerLost: (id, reason) => `ответ на платёж ${id} потерян (${reason}); спрашиваю шлюз через Status`,
    notFinal: (id, answer) => `платёж ${id} ещё не окончателен (${answer}); спрашиваю шлюз через Status`,
    lookingUp: (id, lookUp) =>
      `Жду ответа шлюза о платеже ${id}${lookUp === undefined ? '' : ` (Status ${lookUp.attempt} из ${lookUp.of})`}…`,
    resending: 'шлюз о нём не знает: отправляю тот же платёж снова (тот же TransactionID, дважды он не пройдёт)',
    retrying: (id) =>
      `транзакция ${id} уже есть в журнале для этой покупки: спрашиваю шлюз снова (повтор не платит дважды)`,
    outcomeNotRecorded: (message, id) =>
      `${message}: исход ${id} не записан; \`agentpay reconcile\` получит его у шлюза`,
    lookUpsNotRecorded: (message) =>
      `${message}: то, что покажут запросы, не записывается в журнал; \`agentpay reconcile\` доведёт платежи журнала до конца`,
  },

  desk: {
    limitNames: {
      maxAmount: 'лимит одного платежа',
      dailyLimit: 'дневной лимит',
      accountDailyLimit: 'дневной лимит счёта',
      approvalOver: 'порог одобрения',
    },
    limit: (name, limitAmount, currency, setBy) => `${name} ${amount(limitAmount)} ${currency} (${setBy})`,
    setBy: (by) =>
      'profile' in by
        ? `профиль «${by.profile}»`
        : 'flag' in by
          ? by.flag
          : `правила общего журнала, задал ${by.ledger}`,
    overSingle: (given, currency, limit) => `${amount(given)} ${currency} превышает ${limit}`,
    operatorToday: (whose) => `платежи оператора ${whose} за сегодня`,
    accountToday: (whose) => `платежи на счёт ${whose} за сегодня`,
    overDaily: (given, currency, of, from, to, limit) =>
      `${amount(given)} ${currency} поднимет ${of} с ${amount(from)} до ${amount(to)} ${currency}, сверх: ${limit}`,
    refusedLimits: (breaches) => `отказано: ${breaches}; ничего не отправлялось`,
    refusedLimitsHint:
      'проверьте сумму и счёт; если платёж верен, повторите его с --over-limit (журнал запишет это вместе с вашим именем)',
    refusedDuplicate: (count, payments) =>
      `отказано как дубль пополнения: такой же платёж недавно прошёл ${times(count)} (${payments}); ничего не отправлялось`,
    refusedDuplicateHint: (id) =>
      `чтобы узнать исход прежнего, \`agentpay status ${id}\`; чтобы безопасно его повторить, \`pay\` с --txn-id ${id}; только чтобы намеренно заплатить ещё раз, \`pay\` с --allow-duplicate или снова \`buy\` (он спросит)`,
    minutesAgo: (minutes) => (minutes === 0 ? 'меньше минуты назад' : `${minutes} мин назад`),
    duplicate: (p, as = 'subject') =>
      `${as === 'object' ? 'транзакцию' : 'транзакция'} ${p.id}, ${amount(p.amount)} ${p.currency} на счёт ${p.account}, услуга ${p.service}, ${p.when}${p.operator ? `, оператор ${p.operator}` : ''}, ${p.state === undefined ? 'ответа ещё нет' : (ru.states[p.state as 'success'] ?? p.state)}`,
    live: {
      noGateway: 'шлюз не задан',
      agent: (id) => `агент ${id ?? 'не задан'}`,
      chosenBy: (by) => `выбран через ${by}`,
      otherWays: 'или выберите тестовый шлюз (--profile, --sandbox)',
      payNeedsYes: (profile) =>
        `для оплаты через боевой профиль ${profile} из скрипта нужен --yes (stdin — не терминал); ничего не отправлялось`,
      payNeedsYesHint: (otherWays) => `добавьте --yes, если этот платёж предназначен боевому шлюзу, ${otherWays}`,
      confirm: (p) =>
        `Оплатить ${amount(p.amount)} ${p.currency} на счёт ${p.account}, услуга ${p.service}, через БОЕВОЙ профиль ${p.profile}?`,
    },
  },

  approvals: {
    needed: (breach) => `нужен второй человек: ${breach}; ничего не отправлено`,
    neededByLedger: (over) =>
      `нужен второй человек: сумма выше порога одобрения общего журнала ${over} (его задал администратор); ничего не отправлено`,
    notACurrencyCode:
      'общий журнал сравнивает пороги одобрения по коду валюты: валюта — три заглавные латинские буквы, сумма — обычное десятичное число; ничего не отправлено',
    heldByRequest:
      'этот TransactionID занят запросом на одобрение: отправляется только его покупка, когда её одобрят, командой `agentpay pay --approved <id>`; ничего не отправлено',
    neededHint:
      'попросите старшего кассира: повторите с --request-approval; после одобрения платёж отправит `agentpay pay --approved <id>`',
    teamLedgerOnly:
      'одобрение вторым человеком требует общего журнала в PostgreSQL (--ledger postgres://<роль>@<хост>/<база>): файл журнала не отличает одного человека от другого; ничего не отправлено',
    playMoney: (mode) =>
      `${mode} — игровые деньги со своим журналом: одобрения и смены ведёт общий журнал, для настоящего шлюза (docs/sandbox.md)`,
    requested: (id, expires) => `транзакция ${id} ждёт одобрения старшего кассира до ${expires}; ничего не отправлено`,
    requestedHint: (id) =>
      `другой старший кассир (не вы) запускает \`agentpay approve ${id}\`; затем \`agentpay pay --approved ${id}\` отправит платёж`,
    approved: (id, requester) =>
      `транзакция ${id}, запрошенная ролью ${requester}, одобрена: её отправит \`agentpay pay --approved ${id}\``,
    declined: (id, requester) => `транзакция ${id}, запрошенная ролью ${requester}, отклонена: она не будет отправлена`,
    noneOpen: 'нет запросов, ждущих одобрения',
    columns: {
      transactionId: 'TransactionID',
      purchase: 'Покупка',
      needs: 'Почему',
      requestedBy: 'Запросил',
      expires: 'Действует до',
      where: 'Шлюз',
    },
    purchase: (sum, currency, account, service) => `${amount(sum)} ${currency} на счёт ${account}, услуга ${service}`,
    voucher: (name) => `ваучер ${name}`,
    askedBy: (role) => `запросил ${role}`,
    where: (gateway, agentId) => `${gateway}, агент ${agentId}`,
    deciding: (approve, request) => `${approve ? 'одобряется' : 'отклоняется'} ${request}`,
    notDecided: 'решение не принято: ничего не изменено',
    ambiguous: (id, candidates) => `TransactionID ${id} есть в нескольких запросах: ${candidates}; ничего не изменено`,
    ambiguousHint: 'укажите шлюз и агента нужного запроса: --base-url и --agent-id (или --profile)',
    needs: {
      'approval-over': 'выше порога одобрения',
      duplicate: 'повторное пополнение',
      asked: 'по просьбе оператора',
    },
    refused: (reason, sent) => `отказано: ${reason}; ${sent ? 'ничего не отправлено' : 'ничего не изменено'}`,
    reasons: {
      notSupervisor: (role) => `${role} — не роль старшего кассира, а одобрять и отклонять может только старший кассир`,
      ownRequest: (role) => `этот платёж запросила роль ${role}, поэтому решать должен другой человек`,
      expired: (id) => `срок запроса на ${id} истёк`,
      decided: (id) => `по запросу на ${id} уже принято решение`,
      none: (id) => `запроса на одобрение ${id} для этого шлюза нет`,
      waiting: (id) => `${id} всё ещё ждёт одобрения старшего кассира`,
      declined: (id) => `${id} отклонена`,
      taken: (id) => `транзакция ${id} уже есть в журнале`,
    },
    approvedAlone: (flag) =>
      `--approved отправляет покупку в том виде, в каком её одобрили: ${flag} не может её изменить; ничего не отправлено`,
    reasonHint: 'открытые запросы показывает `agentpay approvals`',
    sentAlready: (id, state) =>
      `транзакция ${id} уже была отправлена по этому одобрению (${state}); повторно не отправлена`,
    sentAlreadyHint: (id) => `её ответ: \`agentpay status ${id}\``,
    requestedBy: 'Запросил',
    approvedBy: 'Одобрил',
  },

  shifts: {
    teamLedgerOnly:
      'смены ведёт общий журнал в PostgreSQL (--ledger postgres://<роль>@<хост>/<база>): у файла журнала их нет; ничего не изменено',
    opened: (role, at) => `смена ${role} открыта с ${at}`,
    alreadyOpen: 'у вашей роли уже открыта смена: ничего не изменено',
    alreadyOpenHint: '`agentpay shift x` покажет её; `agentpay shift close` закроет',
    noShift: (role) => `у ${role} нет открытой смены`,
    noShiftHint: 'её открывает `agentpay shift open`',
    outsideByLedger: (role) =>
      `в этом общем журнале для платежа нужна открытая смена (так задал администратор), а у ${role} её нет; ничего не отправлено`,
    outside: (role) =>
      `здесь для платежа нужна открытая смена (ключ профиля shifts), а у ${role} её нет; ничего не отправлено`,
    openItem: (id, state) => `${id} (${state})`,
    closeRefused: (items) => `смену нельзя закрыть, пока эти платежи не окончательны: ${items}; ничего не изменено`,
    closeRefusedHint:
      'урегулируйте их (`agentpay reconcile`, `agentpay status <id>`, `agentpay approvals`) или закройте с --carry-over, чтобы перенести их в следующую смену',
    closeRaced: 'смена изменилась или в тот же момент был сделан другой Z-отчёт: ничего не изменено',
    closeRacedHint: 'запустите `agentpay shift close` ещё раз',
    closed: (number, hash) => `смена закрыта: Z-отчёт ${number}, SHA-256 ${hash}`,
    chainIntact: (count) => (count === 0 ? 'Z-отчётов пока нет' : `цепочка Z-отчётов цела (отчётов: ${count})`),
    chainBroken: (number, why) => `Z-отчёт ${number} не такой, каким был сделан: ${why}`,
    breaks: {
      content: 'его содержимое — не JSON',
      number: 'его номер нарушает последовательность',
      hash: 'его содержимое не совпадает с его хешем',
      link: 'в нём нет хеша предыдущего отчёта',
    },
    chainBrokenHint: 'отчёты до него целы; спросите администратора базы данных, кто менял таблицу',
    shiftAlone: '--shift сам задаёт период: уберите --date, --since и --until',
    noSuchReport: (number) => `в этом журнале нет Z-отчёта ${number}`,
    noSuchReportHint: 'число отчётов покажет `agentpay shift verify --json`',
    xTitle: 'X-отчёт (смена открыта)',
    zTitle: (number) => `Z-отчёт ${number}`,
    approvedLine: (id, requestedBy, approvedBy) => `${id}: запросил ${requestedBy}, одобрил ${approvedBy}`,
    approvalsHeading: 'Одобрено',
    openHeading: 'Не окончательны',
    carriedHeading: 'Перенесено в следующую смену',
    noPayments: 'платежей нет',
    hash: 'SHA-256',
    previous: 'Предыдущий',
  },

  lock: {
    holder: (pid: string, host: string, since: string) => `процесс ${pid} на ${host}, с ${since}`,
    unknownHolder: 'процесс, который ещё не записал, кто он',
    purchaseBusy: 'другой терминал держит этот счёт уже 30 с (остановлен между проверкой и записью?)',
    ledgerWaiting: (path) => `ждём ${path}: в него сейчас пишет другой процесс agentpay (Ctrl+C прервёт ожидание)`,
    ledgerBusy: (path) => `другой процесс agentpay держит ${path} уже 30 с`,
    ledgerBusyHint: 'повторите, когда другая команда agentpay завершится (её покажет `ps`); ничего не записано',
    runBusy: (file: string, holder: string) =>
      `${file} уже оплачивается другим запуском: ${holder}; ничего не отправлялось`,
    runBusyHint: (results: string) =>
      `дождитесь конца того запуска и запустите файл снова (он продолжится по ${results}); блокировку запуска, умершего на этой машине, agentpay снимет сам; с другой машины или из другого контейнера — удалите ${results}.lock, когда того запуска уже нет`,
  },

  states: { success: 'успех', failed: 'отказ', pending: 'в обработке', unknown: 'неизвестно' },
  hiddenColumns: (headings) =>
    `не поместились по ширине: ${headings} (все столбцы покажут окно шире, --format csv или --json)`,

  receipt: {
    heading: (noun, state) =>
      ({
        payment: {
          success: 'Платёж прошёл',
          failed: 'Платёж отклонён',
          pending: 'Платёж в обработке',
          unknown: 'Исход платежа неизвестен',
        },
        transaction: {
          success: 'Транзакция прошла',
          failed: 'Транзакция отклонена',
          pending: 'Транзакция в обработке',
          unknown: 'Исход транзакции неизвестен',
        },
      })[noun][state],
    labels: {
      transactionId: 'TransactionID',
      requestId: 'RequestID',
      state: 'Состояние',
      service: 'Услуга',
      account: 'Счёт',
      amount: 'Сумма',
      exchangeRate: 'Курс',
      message: 'Сообщение',
      warning: 'Внимание',
      voucher: 'Ваучер',
      time: 'Время',
      operator: 'Оператор',
    },
    creditedIn: (currency) => ` (зачислено в ${currency})`,
    noName: '(без названия)',
    noAnswerRecorded: 'ответ не записан: выполните agentpay reconcile',
  },

  check: {
    exchangeRate: (text) => `Курс ${text}`,
    subject: (service, account) => `услуга ${service}, счёт ${account}`,
    staticService: (subject, command) =>
      `Нет списка ваучеров (${subject}): статическая услуга. Оплатить: ${command} --amount <сумма>`,
    emptyList: (subject) =>
      `Сейчас нет доступных ваучеров (${subject}): список ваучеров шлюза пуст (это не статическая услуга). Попробуйте позже или другой счёт.`,
    count: (count, subject) => `${vouchers(count)}: ${subject}`,
    payOne: (command) => `Оплатить один из них: ${command} --invoice-id <InvoiceId>`,
    head: { position: '№', invoiceId: 'InvoiceId', name: 'Название', orderAmount: 'OrderAmount', currency: 'Валюта' },
    exchange: (rate, paidIn, creditedIn) =>
      `${rate ?? 'не указан'}: оплата в ${paidIn}, ${creditedIn === undefined ? 'валюта зачисления не указана' : `зачисление в ${creditedIn}`}`,
  },

  pay: {
    dryRun: 'пробный запуск: был бы отправлен этот Payment; ничего не отправлялось.',
  },

  buy: {
    aboutToPay: 'К оплате',
    labels: {
      service: 'Услуга',
      account: 'Счёт',
      voucher: 'Ваучер',
      amount: 'Сумма',
      exchangeRate: 'Курс',
      invoiceId: 'InvoiceId',
      transactionId: 'TransactionID',
    },
    staticVoucher: 'статическая (без списка ваучеров)',
    orderAmountExactly: ' (OrderAmount, в точности)',
    payNow: (given, currency) => `Оплатить ${amount(given)} ${currency} сейчас?`,
    checking: (subject) => `Проверяю: ${subject}…`,
    paying: (given, currency, id) => `Оплачиваю ${amount(given)} ${currency}, TransactionID ${id}…`,
    sameTopUp: 'Такое же пополнение было недавно; возможно, клиент его уже получил:',
    typeDigits: (count) =>
      `Чтобы всё же оплатить снова, введите ${count === 1 ? 'последнюю цифру' : `последние ${characters(count)}`} счёта (Enter: не платить)`,
    service: 'Услуга',
    serviceId: 'Id услуги',
    anotherService: 'другой id услуги…',
    account: 'Счёт клиента',
    currency: 'Валюта',
    amount: (currency) => `Сумма (${currency})`,
    mustNotBeEmpty: (what) => `${what === 'service' ? 'id услуги' : 'счёт'} не может быть пустым`,
    moreThanZero: 'сумма должна быть больше нуля',
    whatNow: 'Что дальше?',
    tryAccount: 'другой счёт',
    tryService: 'другая услуга',
    tryCurrency: 'другая валюта',
    quit: 'выйти',
    staticService: (service) => `У услуги ${service} нет списка ваучеров: статическая услуга, оплачивается суммой.`,
    voucher: 'Ваучер',
    keys: (filter) => `↑/↓ — выбор${filter ? ', набор текста — фильтр' : ''}, Enter — подтвердить, Esc — отмена`,
    noVoucherCosts: (given) => `нет ваучера ровно за ${amount(given)}; выберите один`,
    noSuchVoucher: (picked) => `нет такого ваучера: ${picked}`,
    overLimitMark: 'сверх лимита',
    overLimitPicked: (breaches) => `${breaches}: выберите другой ваучер или запустите buy снова с --over-limit`,
    following: 'Слежу за ним, пока исход не станет окончательным; Ctrl+C прекращает слежение (платёж остаётся в силе).',
    waiting: (id) => `Жду транзакцию ${id}…`,
    lookItUp: (id) => `узнайте его: agentpay status ${id}`,
    stoppedFollowing: (id) => `слежение за транзакцией ${id} прекращено (она ещё в обработке)`,
    couldNotFollow: (id, reason) => `не удалось проследить за транзакцией ${id}: ${reason}`,
    kinds: { dynamic: 'динамическая', static: 'статическая' },
    checkRefusedStatic: (service, message, status) =>
      `шлюз отказал в проверке счёта для услуги ${service} (${message}, ResponseStatus ${status}); в профиле она объявлена статической, поэтому оплачивается суммой`,
    amountNotListed: (amount, service) =>
      `--amount ${amount} нет среди сумм, указанных в профиле для услуги ${service}; ничего не оплачено`,
    amountNotListedHint: (listed) => `укажите одну из них точно так, как она записана: ${listed}`,
    notInteractive: 'buy работает в диалоге, вывода --json у него нет',
    needsTerminal: (missing) =>
      `buy работает в диалоге, за терминалом нужен человек (${missing}); ничего не отправлялось`,
    missing: { stdin: 'stdin — не терминал', stdout: 'stdout — не терминал', ci: 'задана переменная CI' },
    scriptsHint:
      'скрипты получают ваучеры через `agentpay check --service <id> --account <счёт>`, затем платят через `agentpay pay --service <id> --account <счёт> --invoice-id <id>` (или --amount)',
  },

  history: {
    head: {
      when: 'Когда',
      gateway: 'Шлюз',
      operator: 'Оператор',
      host: 'Машина',
      approvedBy: 'Одобрил',
      transactionId: 'TransactionID',
      state: 'Состояние',
      service: 'Услуга',
      account: 'Счёт',
      amount: 'Сумма',
      requestId: 'RequestID',
    },
    none: (ledger, filtered) => (filtered ? `в ${ledger} нет подходящих транзакций` : `в ${ledger} нет транзакций`),
    gateways: (names) => `шлюзы в журнале: ${names}`,
  },

  report: {
    head: {
      service: 'Услуга',
      operator: 'Оператор',
      approvedBy: 'Одобрил',
      currency: 'Валюта',
      state: 'Состояние',
      count: 'Количество',
      sum: 'Сумма',
    },
    total: 'Итого',
    day: (day) => `${day} (местные сутки)`,
    // After «за»: «платежи за время с … до …».
    span: (from, until) => (from === null ? `время с начала до ${until}` : `время с ${from} до ${until}`),
    none: (ledger, range) => `в ${ledger} нет платежей за ${range}`,
    paymentsFor: (range) => `платежи за ${range}`,
  },

  metrics: {
    badJob: (name) =>
      `--metrics-job ${JSON.stringify(name)} — не метка «job»: нужны строчные латинские буквы, цифры и _, первой — буква (например, reconcile_nightly)`,
    jobWithoutFile: '--metrics-job указывается только вместе с --metrics-file <путь>',
    writeHint: 'создайте каталог или исправьте его права либо укажите другой путь через --metrics-file',
  },

  batch: {
    summary: (heading, counts) =>
      `${heading}: успех — ${whole(counts.success)}, отказ — ${whole(counts.failed)}, в обработке — ${whole(counts.pending)}, неизвестно — ${whole(counts.unknown)}`,
    lookedUp: (total, notIds) =>
      `проверено: ${whole(total)}${notIds === 0 ? '' : `, не id: ${counted(notIds, { one: 'строка', few: 'строки', many: 'строк', other: 'строки' })}`}`,
    reconciled: (count) => `сверено: ${whole(count)}`,
  },

  reconcile: {
    leftOpen: (count, code, hint) =>
      `${plural('ru', count, { one: 'транзакция осталась открытой', few: 'транзакции остались открытыми', many: 'транзакций осталось открытыми', other: 'транзакции осталось открытыми' })} на ResponseStatus ${code}: ${hint}`,
    classifyHint: (status, flags, keys) =>
      `классифицируйте ResponseStatus ${status}, когда оператор шлюза скажет, что он значит: ${flags}; ключи профиля ${keys}`,
    meanings: { pending: 'в обработке', notFound: 'такой транзакции нет', failed: 'окончательный отказ' },
    others: (count, names) =>
      `${plural('ru', count, { one: 'открытая транзакция относится', few: 'открытые транзакции относятся', many: 'открытых транзакций относятся', other: 'открытые транзакции относятся' })} к другому шлюзу или агенту: ${names}; чтобы ${count === 1 ? 'её' : 'их'} закрыть, запустите reconcile с той конфигурацией`,
    owner: (gateway, agentId) => `${gateway} (агент ${agentId})`,
    nothing: (ledger) => `в ${ledger} нечего сверять`,
    lookUpRefused: (answer) => `шлюз отказал в самом запросе (${answer}); проверьте id агента и пароль`,
    lostNow: (answer) => `сейчас шлюз её не находит, хотя раньше ответил на неё ${answer}; выясните у оператора шлюза`,
    notFoundYet: (ageSeconds, graceSeconds) =>
      `шлюз её пока не находит (прошло ${ageSeconds} с; окончательно — когда пройдёт ${graceSeconds} с)`,
  },

  registry: {
    lists: {
      'only-in-registry': 'только в реестре',
      'only-in-ledger': 'только в журнале',
      different: 'расхождение',
      'dated-another-day': 'за другой день',
    },
    head: {
      list: 'Список',
      transactionId: 'TransactionID',
      date: 'Дата',
      account: 'Счёт',
      registryAmount: 'Сумма в реестре',
      ledgerAmount: 'Сумма в журнале',
      registryState: 'Состояние в реестре',
      ledgerState: 'Состояние в журнале',
    },
    paid: 'оплачен',
    compared: (registry, rows, sum, days, agreed) =>
      `реестр ${registry}: ${counted(rows, { one: 'строка', few: 'строки', many: 'строк', other: 'строки' })}, ${sum}; дни журнала ${days}; сходятся: ${agreed.toLocaleString('ru-RU')}`,
    daySpan: (first, last, days) =>
      `с ${first} по ${last} (${counted(days, { one: 'день', few: 'дня', many: 'дней', other: 'дня' })})`,
    listSum: (list, rows, sum) => `${list}: ${rows.toLocaleString('ru-RU')} (${sum})`,
    differentSums: (list, rows, registrySum, ledgerSum) =>
      `${list}: ${rows.toLocaleString('ru-RU')} (в реестре ${registrySum}, в журнале ${ledgerSum})`,
    noGateway: 'шлюз не задан: сверяются платежи всех шлюзов журнала',
    settled: (transactionId, state, message) => `транзакция ${transactionId} проверена: ${state} (${message})`,
    firstAnotherDay: (registry, line, date, day, rows) =>
      `реестр ${registry}, строка ${line}: дата ${date}, а не ${day} (--date); ${counted(rows, {
        one: 'строка за другой день вынесена отдельно («за другой день») и не сверялась',
        few: 'строки за другой день вынесены отдельно («за другой день») и не сверялись',
        many: 'строк за другой день вынесены отдельно («за другой день») и не сверялись',
        other: 'строки за другой день вынесены отдельно («за другой день») и не сверялись',
      })}`,
    wholly: (registry, dates, day) => `реестр ${registry} — за ${dates}, а не за ${day} (--date): ничего не сверялось`,
    whollyHint: (date, day) =>
      `укажите --date ${date} (или уберите --date), чтобы сверить реестр за его собственный день, или запросите у провайдера реестр за ${day}`,
    disagree: (payments) =>
      `реестр и журнал расходятся в ${counted(payments, { one: 'платеже', few: 'платежах', many: 'платежах', other: 'платежах' })}`,
    agree: 'реестр и журнал сходятся',
    anotherDay: (rows, day) =>
      `${counted(rows, {
        one: 'строка реестра датирована',
        few: 'строки реестра датированы',
        many: 'строк реестра датированы',
        other: 'строки реестра датированы',
      })} другим днём, а не ${day}`,
    notSettled: (payments) =>
      `${counted(payments, {
        one: 'открытый платёж не удалось',
        few: 'открытых платежа не удалось',
        many: 'открытых платежей не удалось',
        other: 'открытого платежа не удалось',
      })} довести до конца (сбой шлюза)`,
    listsHint:
      'списки — в stdout: сообщите о расхождениях провайдеру до его срока; открытые платежи доводит до конца `agentpay reconcile`',
    anotherDayHint: (day) =>
      `строки с другой датой не относятся к ${day}: сверьте их с --date их дня или спросите провайдера, почему они в этом реестре`,
    settleHint: 'запустите команду снова с --settle, когда шлюз будет отвечать',
    goesWithRegistry: (flag) => `${flag} используется только вместе с --registry <файл>`,
    sinceWithRegistry: '--since не сочетается с --registry',
    sinceWithRegistryHint: 'дни сверки задаёт реестр; чтобы выбрать день, укажите --date <день>',

    line: (registry, line) => `реестр ${registry}, строка ${line}`,
    cell: (where, column, field) => `${where}, столбец ${column} (${field})`,
    atColumn: (column) => `, столбец ${column}`,
    fields: { transactionId: 'TransactionID', date: 'дата', time: 'время', account: 'счёт', amount: 'сумма' },
    columnName: (name) => `«${name}»`,
    noColumn: (where, name, field, names) =>
      `${where}: в заголовке нет столбца ${name} (${field}); есть столбцы ${names}`,
    nameColumnsHint: 'назовите столбцы в файле соответствия (--registry-format; docs/registries.md)',
    missingCell: (where, columns) =>
      `${where}: нет значения; в строке всего ${counted(columns, { one: 'столбец', few: 'столбца', many: 'столбцов', other: 'столбца' })}`,
    fixRowHint: 'исправьте строку или опишите раскладку в файле соответствия (--registry-format)',
    fixLineHint: 'исправьте эту строку файла или опишите раскладку в файле соответствия (--registry-format)',
    badCell: (where, shown, why) => `${where}: ${shown} ${why}`,
    longCell: (start, length) => `${start}… (${characters(length)})`,
    notDate: (patterns) => `— не дата (${patterns})`,
    orBetween: ' или ',
    notTime: '— не время (HH:mm:ss)',
    notAmount: (example) => `— не сумма вида ${example}`,
    zeroId: '— не TransactionID: номер 0 не обозначает никакой транзакции',
    leadingZero: (written) => `записан с ведущим нулём: TransactionID пишется без ведущих нулей (${written})`,
    beyondLong: (max) => `— больше знакового 64-битного Long (не более ${max}): не TransactionID`,
    notId: '— не TransactionID (только цифры: знаковый 64-битный Long)',
    totalShape: (where, label) =>
      `${where}: итоговая строка ${label} должна содержать число строк и сумму, как в «${label} 3 4500.00»`,
    totalMismatch: (where, label, statedRows, stated, rows, sum) =>
      `${where}: в итоговой строке ${label} строк — ${statedRows}, сумма — ${stated}, а в самом реестре строк — ${rows}, сумма — ${sum}; реестр противоречит сам себе`,
    rowAfterTotal: (where, label, totalLine) =>
      `${where}: строка после итоговой строки ${label} (строка ${totalLine}); итог закрывает реестр`,
    listedAgain: (where, transactionId, first) =>
      `${where}: TransactionID ${transactionId} указан повторно (впервые — в строке ${first}); реестр противоречит сам себе`,
    correctedHint: 'запросите у провайдера исправленный реестр; ничего не сверялось',
    cannotRead: (registry, code) => `не удалось прочитать реестр ${registry} (${code})`,
    cannotReadHint: 'проверьте путь, указанный в --registry',
    notUtf8: (where, byte, character) => `${where}: байт ${byte} (символ ${character}) — не UTF-8; ничего не сверялось`,
    notEncoded: (registry, encoding) =>
      `реестр ${registry} — не ${encoding}: у некоторых байтов нет символа в этой кодировке; ничего не сверялось`,
    notEncodedHint:
      'реестр читается как UTF-8, если файл соответствия не называет его кодировку (--registry-format; docs/registries.md): сохраните его в UTF-8 или назовите кодировку, в которой он записан',

    mapping: {
      notYaml: (file, detail) => `файл соответствия реестра ${file} — не YAML и не JSON: ${detail}`,
      invalid: (file, key, problem) => `файл соответствия реестра ${file}:${key} ${problem}`,
      hint: 'ключи файла соответствия описаны в docs/registries.md',
      required: 'обязателен',
      columnFrom1: 'номер столбца считается с 1',
      emptyName: 'имя столбца в заголовке не может быть пустым',
      oneCharacter: 'один символ, например ";" или "," (или слово tab)',
      oneQuote: "один символ, например '\"'",
      encoding: 'кодировка, которую знает TextDecoder, например utf-8 или windows-1251',
      datePattern: 'шаблон даты, где YYYY, MM и DD встречаются по одному разу, например DD.MM.YYYY',
      numbered: 'без строки заголовка столбцы задаются номерами, считая с 1',
      unreadable: (file, code) =>
        `--registry-format ${file} — не tsv, не csv и не читаемый файл соответствия (${code})`,
      unreadableHint: 'укажите tsv, csv или путь к файлу соответствия в формате JSON или YAML (docs/registries.md)',
    },
  },

  ledger: {
    journalNotDatabase: (path) => `${path} — журнал прежней версии agentpay, а не база журнала`,
    importHint: (path) =>
      `загрузите его в журнал один раз: \`agentpay ledger import ${path}\`, затем работайте с журналом (по умолчанию или --ledger <файл>.sqlite)`,
    oldJournalFound: (path) =>
      `в ${path} есть платежи прежней версии agentpay: загрузите их один раз командой \`agentpay ledger import ${path}\``,
    leasedElsewhere: (count) =>
      `${counted(count, { one: 'открытую транзакцию', few: 'открытые транзакции', many: 'открытых транзакций', other: 'открытой транзакции' })} сейчас сверяет другой процесс agentpay: они оставлены ему`,
    notAJournal: (path) => `${path} — не журнал прежней версии agentpay (JSON Lines): ничего не загружено`,
    notAJournalHint:
      'укажите файл журнала (journal.jsonl); базу журнала переносят так: `agentpay ledger export > file.jsonl`, затем `ledger import file.jsonl`',
    notADatabase: (path) => `${path} — не база журнала agentpay и не журнал`,
    notADatabaseHint: 'укажите в --ledger новое имя файла (agentpay создаст его) или сам файл журнала',
    onNetworkFileSystem: (path, kind) =>
      `${path} лежит в сетевой файловой системе (${kind}): журнал SQLite там могут повредить записи с двух машин`,
    onNetworkFileSystemHint:
      'держите журнал на локальном диске; касса, которой нужен один журнал на несколько машин, использует PostgreSQL (--ledger postgres://…, docs/team-ledger.md)',
    newerSchema: (ledger, version, known) =>
      `у журнала ${ledger} версия схемы ${version}, новее, чем знает этот agentpay (${known}); ничего не записано`,
    newerSchemaHint: 'обновите agentpay на этой машине до версии, которая его записала',
    upToDate: (ledger, version) => `журнал ${ledger} в актуальном состоянии (версия схемы ${version})`,
    applied: (ledger, version, name) => `${ledger}: применена миграция ${version} (${name})`,
    otherPurchase: (id, path) =>
      `транзакция ${id} уже есть в журнале для другой покупки: её записи из ${path} пропущены`,
    playMoneyLeftOut: (records, path) =>
      `${path}: пропущено записей игровых денег (шлюзы sandbox и replay): ${records}; игровые деньги в эти книги не попадают`,
    imported: (path, ledger, added) =>
      `${path} → ${ledger}: ${added === 0 ? 'ничего не добавлено (всё уже было там)' : `добавлено: ${counted(added, { one: 'запись', few: 'записи', many: 'записей', other: 'записи' })}`}`,
    operatorAdded: (role, supervisor, ledger) =>
      `${ledger}: роль оператора ${role} добавлена${supervisor ? ' (старший кассир: может одобрять)' : ''}`,
    operatorRemoved: (role, ledger) =>
      `${ledger}: роль оператора ${role} удалена (записанное ею остаётся под её именем)`,
    noOperators: (ledger) => `в ${ledger} пока нет ролей операторов`,
    operatorColumns: { role: 'Роль', supervisor: 'Старший', login: 'Вход разрешён' },
    badRoleName: (role) =>
      `${JSON.stringify(role)} не может быть ролью оператора: роль — это строчные латинские буквы, цифры и _, не больше 63, не с цифры и не с pg_`,
    badRoleNameHint: 'назовите роль по человеку, например anna или b_ivanov',
    emptyPassword: 'пароль, прочитанный из stdin, пуст',
    passwordStdinHint:
      'передайте пароль через stdin: printf %s "$PASSWORD" | agentpay ledger add-operator <роль> --password-stdin',
    roleExists: (role) => `в базе данных уже есть роль ${role}: ничего не изменено`,
    roleExistsHint:
      'выберите другое имя или сначала удалите оператора командой `agentpay ledger remove-operator <роль>`',
    notAnOperator: (role) => `${role} не является ролью оператора agentpay: ничего не удалено`,
    notAnOperatorHint: 'роли операторов показывает `agentpay ledger operators`',
    refusedByDatabase: (what, reason) => `база данных отказалась ${what}: ${reason}`,
    needsAdministrator:
      'запустите команду с URL администратора (роль с правом CREATEROLE, владеющая таблицами журнала)',
    operatorWhat: {
      add: 'добавить оператора',
      remove: 'удалить оператора',
      list: 'показать операторов',
      policy: 'изменить правила журнала',
    },
    policyNeedsCurrency:
      'общий журнал хранит порог одобрения для каждой валюты: укажите KZT=150000.00, а не одну сумму',
    policyNeedsCurrencyHint: 'например --approval-threshold KZT=150000.00,USD=500',
    policyThreshold: (over, currency, by) => `одобрение свыше ${over} ${currency} (задал ${by})`,
    policyNoThreshold: 'порога одобрения нет',
    policyShiftsRequired: 'для платежей нужна открытая смена',
    policyShiftsOptional: 'смены не обязательны',
  },

  sandbox: {
    listening: 'шлюз-песочница слушает',
    breaking: (faults) => `  нарочно ломается: ${faults} (см. docs/sandbox.md)`,
    credentials: (agentId, password) => `  id агента ${agentId}, пароль ${password} (plain или MD5)`,
    services: '  услуги:',
    accounts: '  счета:',
    codes: (pending, notFound, failed) =>
      `  коды: 10 — успех, ${pending} — в обработке, ${notFound} — не найдена, ${failed} — отказ`,
    tryIt: '  попробуйте:',
    giveCodes: '  прежде чем платить через него по URL, передайте agentpay его коды:',
    stop: '  Ctrl+C останавливает его.',
  },

  replay: {
    andBaseUrl: '--replay и --base-url нельзя указывать вместе',
    fallbackAlone: '--replay-fallback работает только вместе с --replay <каталог>',
    fallbackAloneHint: 'укажите каталог записей в --replay или уберите --replay-fallback',
    cannotRead: (directory, code) => `не удалось прочитать записи в ${directory}: ${code}`,
    badCassette: (directory, problem) => `одну из записей в ${directory} нельзя прочитать: ${problem}`,
    cutShort: (directory, problem) =>
      `одна из записей в ${directory} оборвалась при записи (${problem}): пропущена; если этот обмен нужен, запишите его заново`,
    empty: (directory) => `в ${directory} нет ни одной записи`,
    emptyHint: 'запишите их с --record <каталог> или добавьте --replay-fallback, чтобы отвечала песочница',
    cannotRecord: (directory, code) => `не удалось вести запись в ${directory}: ${code}`,
    nothingSent: 'ничего не отправлено',
    noRecording: (asked, meaning) =>
      `в записях нет ответа на ${asked}: ${
        meaning === 'payment'
          ? 'ничего не отправлено и ничего не оплачено'
          : meaning === 'neverMade'
            ? 'на его Payment записи тоже не было, так что платёж не проводился'
            : 'ответить нечем'
      }`,
    noRecordingHint:
      'запишите этот обмен со шлюзом с --record ‹каталог> или добавьте --replay-fallback, чтобы отвечала песочница',
    notRecorded: (problem) =>
      `не удалось записать обмен (${problem}); обмены продолжились, но следующие уже не записывались`,
    listening: 'воспроизводимый шлюз слушает',
    faultWithoutFallback: (flag) =>
      `${flag} портит только ответы песочницы: добавьте --replay-fallback или уберите ${flag}, чтобы записи отдавались как записаны`,
    anyCredentials:
      '  подойдут любой id агента и любой пароль; передайте agentpay таблицу кодов записанного шлюза (docs/configuration.md)',
    serving: (count, directory, fallback) =>
      `  воспроизведение записей из ${directory}: ${counted(count, { one: 'запись', few: 'записи', many: 'записей', other: 'записи' })}; ${fallback ? 'на остальное отвечает песочница' : 'на всё остальное — HTTP 404'}`,
  },

  doctor: {
    settings: 'Настройки (флаг > переменная окружения > профиль > по умолчанию)',
    // Each followed by its key in the table: the word the config file and --json use.
    settingNames: {
      profile: 'профиль',
      configFile: 'файл настроек',
      baseUrl: 'адрес шлюза',
      agentId: 'id агента',
      password: 'пароль',
      passwordFormat: 'вид пароля',
      timeoutMs: 'ожидание ответа, мс',
      pendingCodes: 'коды «в обработке»',
      notFoundCodes: 'коды «не найдена»',
      failedCodes: 'коды отказа',
      dateFormat: 'формат RequestDate',
      ledger: 'журнал',
      operator: 'оператор',
      live: 'настоящие деньги',
      maxAmount: 'наибольшая сумма',
      dailyLimit: 'лимит за сутки',
      accountDailyLimit: 'лимит счёта за сутки',
      approvalOver: 'порог одобрения',
      approvalTtlMs: 'срок одобрения, мс',
      shifts: 'смены',
      duplicateWindowMs: 'окно дублей, мс',
      settleAttempts: 'запросов Status',
      settleDelayMs: 'пауза до Status, мс',
      proxy: 'прокси',
      httpsProxy: 'прокси для HTTPS',
      httpProxy: 'прокси для HTTP',
      noProxy: 'без прокси',
      caFile: 'файл CA',
      lang: 'язык',
      record: 'запись обменов',
      replay: 'воспроизведение',
    },
    sources: {
      flag: 'флаг',
      env: 'переменная',
      profile: 'профиль',
      default: 'по умолчанию',
      sandbox: 'песочница',
      replay: 'воспроизведение',
      prompt: 'введён',
      unset: 'не задано',
    },
    profileIn: (name, path) => `${name} в ${path}`,
    none: '(нет)',
    values: {
      '(the embedded sandbox)': '(встроенная песочница)',
      '(the embedded replay)': '(встроенное воспроизведение)',
      '(asked for)': '(запрошен)',
      direct: 'напрямую',
      true: 'да',
      false: 'нет',
    },
    notFoundSuffix: ' (не найден)',
    gateway: 'Шлюз',
    route: 'маршрут',
    endpoint: 'адрес',
    answered: (id, ms, status, message) => `Status для ${id} ответил за ${ms} мс: ResponseStatus ${status} ${message}`,
    verdicts: {
      notFound: 'не найдена, как и ожидалось для выдуманного id',
      unclassified: 'код, которого нет в таблице этого шлюза',
      failed: 'код из failedCodes; для выдуманного id обычно приходит «не найдена»',
      pending: 'код из pendingCodes; для выдуманного id обычно приходит «не найдена»',
      success: 'успех для выдуманного id: проверьте базовый URL',
    },
    credentialsHint: 'если это сообщение об учётных данных, проверьте id агента и пароль',
    replaying: (recordings, directory) =>
      `${counted(recordings, { one: 'запись', few: 'записи', many: 'записей', other: 'записи' })} из ${directory}; шлюз не спрошен: у выдуманного id нет записи`,
    suggest: (status, key) =>
      `ResponseStatus ${status} нет в ${key}. Если, и только если, его Message значит «такой транзакции нет» (а не отказ в ваших учётных данных), добавьте его:`,
    suggestProfile: 'профиль:',
    suggestFlag: 'флаг:',
    suggestEnv: 'переменная',
    untilThen:
      'до тех пор платёж, которого Status не находит, остаётся «неизвестно», и reconcile никогда не закроет его как несостоявшийся',
    ledger: 'Журнал',
    journalFile: 'файл журнала',
    notMadeYet: ' (ещё не создан: его создаст первый платёж)',
    reached: (version) =>
      `доступен; версия схемы ${version}${version === 0 ? ' (пустая: создаётся при первом использовании или командой `agentpay ledger migrate`)' : ''}`,
    waiting: (count) =>
      `${plural('ru', count, { one: 'исход, сохранённый на этой машине, ждёт', few: 'исхода, сохранённых на этой машине, ждут', many: 'исходов, сохранённых на этой машине, ждут', other: 'исхода, сохранённых на этой машине, ждут' })} журнала: их доставит следующая команда, которая до него дотянется`,
  },

  bulk: {
    line: (line) => `строка ${wholeNumberText(line)}`,
    column: (column) => `, столбец «${column}»`,
    andMore: (count) => `и ещё ${count}`,
    badRows: (where, count, named) =>
      `в ${where} ${plural('ru', count, { one: 'плохая строка', few: 'плохие строки', many: 'плохих строк', other: 'плохой строки' })}, ничего не отправлялось:${named}`,
    badRowsHint: 'исправьте названные строки и запустите ту же команду снова; платежи не отправлялись',
    unknownColumns: (where, columns) =>
      `${where}: ${columns
        .map(
          ({ name, meant }) => `неизвестный столбец «${name}»${meant === undefined ? '' : `: может быть, «${meant}»?`}`,
        )
        .join('; ')}; ничего не отправлялось`,
    unknownColumnsHint: (columns) => `столбцы заказа: ${columns}; исправьте заголовок и запустите ту же команду снова`,
    resultsFileHint:
      'освободите место на диске или исправьте права на каталог файла результатов и запустите ту же команду снова: она продолжит с того же места и ничего не оплатит дважды',
    notUtf8Hint:
      'файл заказов читается как UTF-8 (BOM допустим): если он сохранён в другой кодировке, укажите её, например `--encoding windows-1251` для «CSV (разделители — точка с запятой)» из Excel с кириллицей, и запустите ту же команду снова; платежи не отправлялись',
    lineGone: (line) => `строки ${line} больше нет`,
    changedRows: (input, results, named) =>
      `${input} изменился с тех пор, как записан ${results} (${named}); угадывать, какой платёж чей, не буду, ничего не отправлялось`,
    otherPurchaseRows: (input, rows) =>
      `журнал хранит для этого запуска ${input} TransactionID, под которыми у него записаны другие покупки (${rows
        .map(
          (row) =>
            `строка ${row.line}: ${row.transactionId} оплатил счёт ${row.account}, ${amount(row.amount)} ${row.currency}`,
        )
        .join('; ')}); их записали туда вручную: отказ, ничего не отправлено`,
    otherPurchaseRowsHint:
      'попросите администратора журнала разобраться с этими строками (agentpay_bulk_rows, agentpay_transactions), прежде чем оплачивать этот файл',
    changedRowsHint: (results) =>
      `запустите исходный файл снова, чтобы его закончить, или дайте изменённому новый файл --results (строки из ${results} могли быть оплачены)`,
    planAmount: 'сумма',
    planVoucher: (voucher, invoiceId) => `${voucher} (InvoiceId ${invoiceId})`,
    already: (state) => `уже ${state}`,
    service: (id) => `услуга ${id}`,
    account: (account) => `счёт ${account}`,
    rows: (count) => counted(count, { one: 'строка', few: 'строки', many: 'строк', other: 'строки' }),
    nothing: 'ничего',
    planSummary: (toPay, totals, done) =>
      `пробный запуск: ${toPay === 1 ? 'был бы отправлен' : 'было бы отправлено'} ${plural('ru', toPay, { one: 'платёж', few: 'платежа', many: 'платежей', other: 'платежа' })} (${totals})${done === 0 ? '' : `; уже завершено и пропущено: ${done}`}; ничего не оплачено. Добавьте --yes, чтобы оплатить.`,
    skipped: '(уже завершена, пропущена)',
    states: {
      success: 'успех',
      failed: 'отказ',
      pending: 'в обработке',
      unknown: 'неизвестно',
      'not-sent': 'не отправлен',
      skipped: 'пропущено',
    },
    progress: (done, total, failed, elapsed, left) =>
      ` ${whole(done)}/${whole(total)}  отказов: ${whole(failed)}  прошло ${elapsed}  осталось ${left}`,
    skippedAs: (state) => `пропущено, уже: ${state}`,
    paidAgainAs: (state) => `${state}, оплачено повторно (ранее не проводился)`,
    summary: (rows, stoppedBy, parts, notStarted) =>
      `${counted(rows, { one: 'строка', few: 'строки', many: 'строк', other: 'строки' })}${stoppedBy === undefined ? '' : ` (остановлено: ${stoppedBy})`}: ${parts || 'ничего не сделано'}${notStarted === 0 ? '' : `; не начато: ${whole(notStarted)}`}`,
    summaryHint:
      'запустите ту же команду снова, чтобы закончить файл: завершённые строки пропускаются, открытые доводятся через Status, остальные оплачиваются с теми же TransactionID',
    resume: (results, final, open, toPay) =>
      `продолжаю по ${results}: уже завершено: ${final} (пропускаются), открыто: ${open} (доводятся через Status), к оплате: ${toPay}`,
    results: (path) => `результаты: ${path}`,
    resultsInUtf8: (path, charset) =>
      `${path} записан в UTF-8 с BOM: в тексте шлюза есть символы, которых нет в ${charset} (сохранены полностью)`,
    interrupt: (by) =>
      `${by}: новые строки не начинаются; строки в работе доводятся до конца (ещё раз ${by} прекратит это, и они останутся неизвестными)`,
    scriptNeedsYes: 'pay --from-file из скрипта платит только с --yes (stdin — не терминал); ничего не отправлялось',
    scriptNeedsYesHint: 'добавьте --dry-run, чтобы увидеть план, или --yes, чтобы его оплатить',
    stdinNeedsResults:
      '--from-file - требует --results <путь>: там хранятся TransactionID строк для следующего запуска',
    stdinTwice: 'в stdin не поместятся и пароль, и заказы (--password-file - и --from-file -)',
    stdinTwiceHint: 'положите заказы в файл, а пароль — в AGENTPAY_PASSWORD или в отдельный файл',
    stoppedStarting: (reason) =>
      `${reason}: новые строки не начинаются; запустите ту же команду снова, когда это будет исправлено`,
    goesWithFromFile: (flag) => `${flag} работает только вместе с --from-file <заказы.csv|.jsonl|->`,
    notWithFromFile: (flag) => `${flag} не сочетается с --from-file: каждая строка файла называет своё`,
    notWithFromFileHint: 'вынесите это в столбец файла (docs/commands.md, раздел про pay --from-file)',
    cannotRead: (path, reason) => `не удаётся прочитать --from-file ${path}: ${reason}`,
    changedWhileRead: (path) =>
      `файл --from-file ${path} изменился, пока его читали: запустите снова, когда он будет записан целиком; ничего не отправлено`,
    cell: {
      empty: 'пусто',
      spaces: (value) => `${JSON.stringify(value)}: пробелы по краям`,
      currency: (value) => `${JSON.stringify(value)} — не трёхбуквенный код вроде KZT или USD`,
      invoiceId: (value) => `${JSON.stringify(value)} — не InvoiceId (цифры, как в списке check)`,
      position: (value) => `${JSON.stringify(value)} — не номер ваучера (1 для Invoice-1)`,
      invoiceBoth: 'укажите invoice-id или invoice (номер), но не оба',
      amount: (value) => `${JSON.stringify(value)} — не десятичное число вроде 2497.00`,
      nothingToPay: 'укажите invoice-id (или invoice) для динамического ваучера или amount для статического',
      zeroAmount: 'сумма, равная нулю, ничего не оплачивает: статический платёж больше нуля',
      namedTwice: 'назван дважды',
      headerNeeds: 'в заголовке нужны столбцы service и account',
      cellCount: (cells, header) => `ячеек ${cells}, а в заголовке ${header}`,
      notCsv: (reason) => `не читается как CSV: ${reason}`,
      noHeader: 'нет заголовка: первая строка называет столбцы (service,account,invoice-id,...)',
      notObject: '— не объект JSON',
      unknownField: (fields, meant) =>
        `— не поле заказа${meant === undefined ? '' : `: может быть, «${meant}»?`} (поля: ${fields})`,
      notString: 'значение должно быть строкой (число JSON теряет цифры: пишите "2497.00")',
      keyTwice: (key, first) => `${JSON.stringify(key)} — это ещё и ключ строки ${first}`,
      noOrders: 'в файле нет заказов',
      overLimit: (breaches) => `${breaches} (дайте --over-limit, если так и надо)`,
      duplicate: (payments) => `повторяет ${payments} (дайте --allow-duplicate, если это намеренно)`,
      notUtf8: (byte, column) => `байт ${byte} в позиции ${column} — не UTF-8`,
      // After «длиннее» the genitive: 21 символа, 64 символов.
      tooLong: (max) =>
        `длиннее ${plural('ru', max, { one: 'символа', few: 'символов', many: 'символов', other: 'символа' })}`,
      control: (code, position) => `содержит управляющий символ ${code} (символ ${position})`,
      loneSurrogate: (code, position) =>
        `содержит ${code} (символ ${position}): половину суррогатной пары, а не символ`,
      service: (value, digits) => `${JSON.stringify(value)} — не номер услуги (цифры, не больше ${digits})`,
      amountDigits: (value, whole, fraction) =>
        `${JSON.stringify(value)}: в сумме больше цифр, чем можно (до ${whole} до точки и ${fraction} после)`,
      fieldTwice: 'указано в объекте дважды: какое из значений имелось в виду — догадка',
    },
  },
  sheet: {
    delimiter: (given) => `--delimiter ${JSON.stringify(given)} — не разделитель: укажите \`,\` или \`;\` или \`tab\``,
    encoding: (given) => `--encoding ${JSON.stringify(given)} — неизвестная программе кодировка`,
    encodingHint: 'укажите метку кодировки WHATWG, например `windows-1251`, `koi8-r`, `utf-16le` или `utf-8`',
    notEncoded: (encoding) => `файл не в кодировке ${encoding}: для некоторых байтов в ней нет символа`,
    goesWithCsv: (flag) => `${flag} применяется только с --format csv`,
    goesWithCsvHint: (flag) => `добавьте --format csv или уберите ${flag}`,
    notADay: (flag, given) => `${flag} ${JSON.stringify(given)} — не дата`,
    dayHint:
      'укажите местную дату в виде ГГГГ-ММ-ДД или ДД.ММ.ГГГГ, например 2026-11-22 или 22.11.2026, либо `today`, `yesterday`',
    notADate: (flag, given) => `${flag} ${JSON.stringify(given)} — не дата`,
    dateHint: 'укажите 2026-11-21, 21.11.2026, 2026-11-21T08:00:00Z или давность, например 30m, 12h, 7d',
  },
  scenario: {
    cases: (count) => plural('ru', count, { one: 'случай', few: 'случая', many: 'случаев', other: 'случая' }),
    attempts: (count) => `, попыток: ${count}`,
    ms: (ms) => `${ms} мс`,
    seconds: (ms) => `${amount((ms / 1000).toFixed(2))} с`,
    skipped: 'пропущен',
    skippedCase: (why) => `пропущен (${why})`,
    where: (caseName, step, kind, id) =>
      `случай «${caseName}», шаг ${step} (${kind}${id === undefined ? '' : ` «${id}»`})`,
    failure: (path, expected, actual) => `${path}: ожидалось — ${expected}, получено — ${actual}`,
    stepError: (reason, type, exitCode) => `${reason} (${type}, код выхода ${exitCode})`,
    failures: 'Не прошло:',
    ofRuns: (count, runs, rows) =>
      `${count} из ${plural('ru', runs, { one: 'прогона', few: 'прогонов', many: 'прогонов', other: 'прогона' })} (${count === 1 ? 'строка' : 'строки'} ${rows.slice(0, 10).join(', ')}${count > 10 ? '…' : ''})`,
    summary: (cases, counts, time) =>
      `${cases}: пройдено — ${counts.passed}, не пройдено — ${counts.failed}, с ошибкой — ${counts.errors}, пропущено — ${counts.skipped} (${time})`,
    interrupted: 'прервано: шаги после Ctrl+C не выполнялись',
    expected: (wanted) => {
      switch (wanted.check) {
        case 'equals':
          return wanted.value;
        case 'not-equals':
          return `что угодно, кроме ${wanted.value}`;
        case 'one-of':
          return `одно из: ${wanted.values.join(', ')}`;
        case 'type':
          return `тип «${wanted.type}»`;
        case 'matches':
          return `текст под шаблон /${wanted.pattern}/${wanted.error === undefined ? '' : ` (${wanted.error})`}`;
        case 'contains':
          return wanted.inList ? `список, в котором есть ${wanted.value}` : `текст, в котором есть ${wanted.value}`;
        case 'decimal-equals':
          return `десятичное число ${wanted.value}`;
        case 'exists':
          return wanted.present ? 'значение' : 'отсутствие значения';
        case 'same-as':
          return `${ru.scenario.actual(wanted.other)} (${wanted.path} шага «${wanted.step}»)`;
        case 'placeholder':
          return wanted.problem;
        case 'repeat':
          return `нет платежа «${wanted.of}», который можно повторить (пробный запуск или платёж, который не удалось провести, его не оставляют)`;
      }
    },
    actual: (found) =>
      'absence' in found
        ? ru.scenario.absence(found.absence)
        : found.type === undefined
          ? found.value
          : `${found.value} (тип «${found.type}»)`,
    absence: (absence) =>
      ({
        missing: 'нет значения',
        null: 'null',
        listHas: `нет значения (в списке ${plural('ru', absence.length ?? 0, { one: 'элемент', few: 'элемента', many: 'элементов', other: 'элемента' })})`,
        notList: 'нет значения (это не список)',
        eachNotList: 'не список',
        emptyList: 'пустой список',
        notJsonString: `не строка с JSON (тип «${absence.type ?? ''}»)`,
        notJson: 'не JSON',
      })[absence.why],
    step: {
      target: (service, account) => `услуга ${service}, счёт ${account}`,
      check: (target) => `проверка: ${target}`,
      raw: (given, invoiceId) =>
        `${amount(given)} без проверок${invoiceId === undefined ? '' : ` (InvoiceId ${invoiceId})`}`,
      // The three below follow «оплата»: in the genitive.
      invoice: (invoiceId) => `ваучера с InvoiceId ${invoiceId}`,
      position: (position) => `ваучера №${position}`,
      amount: (given, currency) => `${amount(given)}${currency === undefined ? '' : ` ${currency}`}`,
      pay: (what, target, dryRun) => `оплата ${what}: ${target}${dryRun ? ' (пробный запуск)' : ''}`,
      fresh: 'новый TransactionID',
      wait: (id) => `ожидание окончательного исхода: ${id}`,
      status: (id, wait) => `запрос Status: ${id}${wait === undefined ? '' : ` --wait ${wait}`}`,
      repeatPay: (of) => `повтор платежа «${of}»`,
    },
    placeholder: {
      each: (text) => `\${${text}}: у [*] нет одного значения; назовите один элемент, например [0]`,
      unknownRoot: (text, root) => `\${${text}}: здесь нет ничего с именем «${root}»`,
      absent: (text, path, why) => `\${${text}}: ${path} — ${why}`,
    },
    retryUnknown: (id, message) => `исход платежа ${id} неизвестен${message === undefined ? '' : ` (${message})`}`,
    retrying: (where, attempt, of, reason) => `${where}: пробую снова (попытка ${attempt} из ${of}): ${reason}`,
    reportWritten: (format, path) => `отчёт ${format === 'junit' ? 'JUnit' : 'HTML'} записан в ${path}`,
    stopped: (by) => `прервано: сценарий остановлен по ${by}; платежи, проведённые до этого, есть в журнале`,
    notPassed: (bad, total) => `не пройдено случаев: ${bad} из ${total}`,
    outcomeUnknown:
      'все случаи пройдены, но исход одного из платежей неизвестен: он сохранён в журнале, его доведёт `agentpay reconcile`',
    noFiles: 'укажите хотя бы один файл сценария',
    oneReportOnStdout: 'в stdout (-) может идти только один --report; для остальных укажите путь',
    reportFormat:
      '--report принимает junit:<путь> или html:<путь>, например `junit:reports/conformance.xml` (- — в stdout)',
    cannotReadFile: (path, reason) => `не удаётся прочитать файл сценария ${path}: ${reason}`,
    cannotReadData: (path, reason) => `не удаётся прочитать файл данных ${path}: ${reason}`,
    nothingSent: 'ничего не отправлялось',
    fileFormatHint: 'формат файла описан в docs/scenarios.md; ничего не отправлялось',
    dataHint: 'см. docs/scenarios.md#data-driven-scenarios; ничего не отправлялось',
  },
  commands: {
    sandboxFault: {
      garbage: (kind) => `каждый запрос обрабатывается, а в ответ идёт мусор: ${kind}`,
      latency: (ms) => `каждый ответ ждёт ${ms} мс`,
      drop: (count) =>
        `${count === 1 ? 'ответ на следующий Payment обрывается' : `ответы на следующие ${count} Payment обрываются`} после проведения`,
      failRate: (share) => `доля проведённых Payment, на которые приходит ответ HTTP 500: ${amount(share)}`,
    },
    fault: (line) => `сбой: ${line}`,
    cannotListen: (where, reason) => `не удаётся слушать ${where}: ${reason}`,
    cannotListenHint: 'выберите другой --port (0 — любой свободный)',
    cannotOpenSandboxState: (path, reason) => `не удаётся открыть состояние песочницы ${path}: ${reason}`,
    cannotOpenSandboxStateHint: 'укажите в --state новый файл или базу данных, записанную песочницей',
    cannotOpenEmbeddedStateHint: 'уберите этот файл: --sandbox заведёт новый (в нём только игрушечные деньги)',
    notABreak: (rule, rules) =>
      `--break ${JSON.stringify(rule)} — не правило, которое умеет нарушать шлюз-песочница: укажите ${rules}`,
    wholeNumber: (flag, unit, range) =>
      `${flag} принимает целое число${unit === undefined ? '' : ` ${{ milliseconds: 'миллисекунд', payments: 'платежей', polls: 'опросов Status', seconds: 'секунд', columns: 'столбцов' }[unit]}`}${range === undefined ? '' : ` от ${range.min} до ${range.max}`}`,
    numberFromTo: (flag, from, to, example) =>
      `${flag} принимает число от ${amount(from)} до ${amount(to)}${example === undefined ? '' : `, например ${amount(example)}`}`,
    oneOf: (flag, choices) => `${flag} принимает одно из: ${choices}`,
    idsAsText: 'id транзакций должны быть текстом',
    noIds: 'укажите хотя бы один id транзакции или --from-file <путь|->',
    stdinTwice: 'в stdin не поместятся и пароль, и id (--password-file - и --from-file -)',
    stdinTwiceHint: 'положите id в файл для --from-file, а пароль — в AGENTPAY_PASSWORD или в отдельный файл',
    cannotReadFromFile: (path, reason) => `не удаётся прочитать --from-file ${path}: ${reason}`,
    receiptWhich: 'укажите TransactionID чека: agentpay receipt <id>',
    owner: (gateway, agentId) => (agentId === undefined ? gateway : `${gateway}, агент ${agentId}`),
    chooseGatewayHint: 'укажите шлюз: --base-url <URL> --agent-id <id> (или --profile) либо --sandbox',
    inLedgerForMany: (id, count, owners) =>
      `транзакция ${id} есть в журнале для ${plural('ru', count, { one: 'шлюза', few: 'шлюзов', many: 'шлюзов', other: 'шлюза' })} (${owners}): о каком из них речь?`,
    inLedgerForOther: (id, owner, held) => `транзакции ${id} нет в журнале для ${owner}; она есть для ${held}`,
    notInLedger: (id, ledger) => `транзакции ${id} нет в журнале ${ledger}`,
    notInLedgerHint: 'проверьте TransactionID через `agentpay history`, а журнал — через `agentpay doctor`',
    jsonIsFormat: (given) => `--json — это --format json: укажите что-то одно, --json или --format ${given}`,
    gatewayFilter: '--gateway принимает базовый URL или слово sandbox',
    dateOrRange: '--date — это целые сутки: укажите его или --since и --until, но не всё вместе',
    emptyRange: (since, until) => `--since ${since} не раньше --until ${until ?? '(сейчас)'}: промежуток пуст`,
    emptyRangeHint: 'укажите --since раньше, чем --until',
    byChoices: (given, choices) => `--by ${JSON.stringify(given)} — не одно из: ${choices}`,
    notAFile: (path) => `${path} — не файл`,
    notAFileHint: 'укажите сам файл журнала',
    postgresOnly: (what, journal) =>
      `ledger ${what} — для журнала в PostgreSQL (--ledger postgres://<роль>@<хост>/<база>, AGENTPAY_LEDGER или ключ профиля ledger), а здесь журнал — файл ${journal}`,
    caUnreadable: (path, where, reason) => `не удаётся прочитать файл CA ${path} (${where}): ${reason}`,
    caNoCertificate: (path, where) => `в файле CA ${path} (${where}) нет сертификата PEM`,
    caHint: 'укажите файл с блоками -----BEGIN CERTIFICATE-----',
    profileKey: (key) => `ключ профиля ${key}`,
    passwordUnreadable: (path, where, reason) => `не удаётся прочитать файл пароля ${path} (${where}): ${reason}`,
    passwordEmpty: (path, where) => `файл пароля ${path} (${where}) пуст`,
    passwordWorldReadable: (path, where, mode) =>
      `файл пароля ${path} (${where}) может прочитать кто угодно (права ${mode}); использовать его не буду`,
    passwordWorldReadableHint: (path) =>
      `выполните \`chmod 600 ${path}\` (или передайте --insecure-password-file, чтобы всё же его использовать)`,
    passwordGroupReadable: (path, where, mode) =>
      `файл пароля ${path} (${where}) может прочитать его группа (права ${mode}); выполните \`chmod 600 ${path}\``,
    receiptLeftOut: (reason) => `в чеке нет ваучера, оператора и времени: журнал не читается (${reason})`,
    receiptNotWritten: (path, id) => `чек в ${path} не записан: в журнале нет платежа ${id} для этой покупки`,
    receiptCannotWrite: (path, reason, id) =>
      `не удаётся записать чек в ${path} (${reason})${id === undefined ? '' : `; платёж остаётся в силе, а \`agentpay receipt ${id}\` напечатает его чек`}`,
    scenarioLive: (profile) =>
      `scenario проводит платежи без участия человека: через боевой профиль «${profile}» ему нужен --yes; ничего не отправлялось`,
    scenarioLiveHint: (otherWays) => `добавьте --yes, если сценарий предназначен боевому шлюзу, ${otherWays}`,
  },

  config: {
    cannotRead: (path, reason) => `не удаётся прочитать файл настроек ${path}: ${reason}`,
    notJson: (path, place) =>
      `файл настроек ${path} — не корректный JSON${place ? ` (строка ${place.line}, столбец ${place.column})` : ''}`,
    notJsonHint: (path) => `проверьте его командой: jq . ${path}`,
    notValid: (path, at, expected, got) =>
      `файл настроек ${path} составлен неверно: ${at}: ожидалось — ${expected}${got === undefined ? '' : `, получено — ${got}`}`,
    notValidHint:
      'в нём лежит {"profiles": {"default": {"baseUrl", "agentId", "passwordFile", "passwordFormat", ...}}} (docs/configuration.md)',
    readableByOthers: (path, mode) =>
      `в файле настроек ${path} есть пароль, а читать файл могут группа или остальные (права ${mode}); выполните: chmod 600 ${path}`,
    theFile: 'файл',
    expected: {
      text: 'текст',
      textOrNumber: 'текст или число',
      trueOrFalse: 'true или false',
      amountsPerCurrency: 'суммы по валютам, как {"KZT": "50000.00"}',
      servicesById:
        'услуги по id, как {"101": "GameCoins top-up"} или {"601": {"name": "Cinema voucher", "kind": "static"}}',
      codeList: 'коды текстом ("11,12") или списком ([11, "12"])',
      oneOf: (choices) => `одно из: ${choices}`,
      settings: 'объект с настройками',
      knownKey: (keys) => `известный ключ (${keys})`,
      profilesObject: 'объект {"profiles": {...}}',
      onlyProfiles: 'на верхнем уровне только ключ "profiles"',
      namedProfiles: 'объект с именованными профилями',
    },
    got: {
      null: 'null',
      list: 'список',
      object: 'объект',
      text: 'текст',
      number: 'число',
      boolean: 'логическое значение',
    },
    noProfile: (name, path) => `профиля ${JSON.stringify(name)} нет в ${path}`,
    profilesThere: (names) => `профили в файле: ${names}`,
    noProfiles: 'нет ни одного',
    createOrDrop: 'создайте файл или уберите --profile',
  },
};

export { ru };
