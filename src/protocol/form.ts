// The request forms of spec 4 as ordered name/value pairs, sent as given: the form encoding escapes `&`, `=`,
// `+`, spaces and non-ASCII, so a value can never split into other fields.
export type FormField = readonly [name: string, value: string];

export interface Credentials {
  agentId: string;
  /** The password as it goes on the wire: plain, or its MD5 (spec 5). */
  wirePassword: string;
}

export interface AccountCheckRequest {
  service: string;
  account: string;
  amount: string;
  currency: string;
  transactionId: string;
  requestDate: string;
}

export interface PaymentRequest extends AccountCheckRequest {
  /** Set for a dynamic voucher (spec 4.2); absent for a static one (spec 4.3). */
  invoiceId?: string | undefined;
}

export interface StatusRequest {
  transactionId: string;
  requestDate: string;
}

const passwordField = 'AgentPassword';
const maskedPassword = '***';

function credentialFields(credentials: Credentials): FormField[] {
  return [
    ['AgentID', credentials.agentId],
    [passwordField, credentials.wirePassword],
  ];
}

/** In the order the request lists of spec 4.1-4.3 give them. */
function purchaseFields(request: AccountCheckRequest): FormField[] {
  return [
    ['Service', request.service],
    ['Amount', request.amount],
    ['Currency', request.currency],
    ['RequestDate', request.requestDate],
    ['TransactionID', request.transactionId],
    ['Account', request.account],
  ];
}

/** spec 4.1 */
export function buildAccountCheckForm(credentials: Credentials, request: AccountCheckRequest): FormField[] {
  return [...credentialFields(credentials), ['RequestType', 'AccountCheck'], ...purchaseFields(request)];
}

// spec 4.2 / 4.3. RequestType is `Payment`: the tables say `Pay` but every example sends `Payment` (spec 2.1).
export function buildPaymentForm(credentials: Credentials, request: PaymentRequest): FormField[] {
  const fields: FormField[] = [
    ...credentialFields(credentials),
    ['RequestType', 'Payment'],
    ...purchaseFields(request),
  ];
  if (request.invoiceId !== undefined) {
    fields.push(['Extra[0].Name', 'InvoiceId'], ['Extra[0].Value', request.invoiceId]);
  }
  return fields;
}

/** spec 4.4: Service, Amount, Currency and Account are not sent. */
export function buildStatusForm(credentials: Credentials, request: StatusRequest): FormField[] {
  return [
    ...credentialFields(credentials),
    ['RequestType', 'Status'],
    ['TransactionID', request.transactionId],
    ['RequestDate', request.requestDate],
  ];
}

// application/x-www-form-urlencoded, as URLSearchParams writes it, without making one per request.
export function encodeForm(fields: readonly FormField[]): string {
  return fields.map(([name, value]) => `${formEncode(name)}=${formEncode(value)}`).join('&');
}

const unreserved = /^[\w*.-]*$/;
/** Texts encoded before, by text: field names, RequestDate, the credentials repeat in a batch. */
const encodedBefore = new Map<string, string>();
const encodedKept = 256;

function formEncode(text: string): string {
  if (unreserved.test(text)) return text;
  let encoded = encodedBefore.get(text);
  if (encoded === undefined) {
    encoded = encodedText(text);
    if (encodedBefore.size >= encodedKept) encodedBefore.clear();
    encodedBefore.set(text, encoded);
  }
  return encoded;
}

function encodedText(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // A lone surrogate: URLSearchParams writes it as U+FFFD.
    return new URLSearchParams([['', text]]).toString().slice(1);
  }
  // encodeURIComponent leaves ! ' ( ) ~ as they are and writes a space as %20; the form
  // serializer escapes the five and writes a space as +.
  return encoded.replace(/[!'()~]|%20/g, (c) => (c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
}

/** The form with the password replaced, for --verbose and --dry-run. */
export function maskForm(fields: readonly FormField[]): FormField[] {
  return fields.map(([name, value]) => [name, name === passwordField ? maskedPassword : value]);
}

export function formToObject(fields: readonly FormField[]): Record<string, string> {
  return Object.fromEntries(fields);
}

/** What a person buys: the service, its account, the amount as typed and its currency. */
export interface PurchaseInput {
  service: string;
  account: string;
  amount: string;
  currency: string;
}
