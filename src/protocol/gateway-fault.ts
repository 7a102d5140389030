// What went wrong with an exchange with the gateway, as data: the client makes it, the error classes carry it,
// i18n/gateway-fault-words.ts says it in the chosen language.

/** Why an exchange broke, at the lowest level (exchange-failure.ts sorts the transports' errors into these). */
export type ExchangeProblem =
  | { kind: 'refused' }
  | { kind: 'hostNotFound' }
  /** The TLS certificate did not verify: `otherHost` when it names another host, else untrusted; nothing was sent. */
  | { kind: 'certificate'; otherHost: boolean; code: string }
  /** The proxy answered CONNECT with this HTTP status instead of 200. */
  | { kind: 'proxyTunnel'; status: string }
  /** The proxy asks for credentials (407). */
  | { kind: 'proxyAuth' }
  | { kind: 'closed' }
  /** The system's time-out (ETIMEDOUT), before or after the connection was made. */
  | { kind: 'timedOutConnecting' }
  | { kind: 'timedOutConnected' }
  /** The answer is not HTTP: the parser's code (HPE_...). */
  | { kind: 'notHttp'; code: string }
  /** Stopped (Ctrl+C, SIGTERM) before the answer arrived. */
  | { kind: 'interrupted' }
  /** Our own time-out (--timeout) ran out while connecting, or while waiting for the answer. */
  | { kind: 'couldNotConnectWithin'; ms: number }
  | { kind: 'noAnswerWithin'; ms: number }
  /** Anything else, in the words of the error behind it (Node's, or the transport's). */
  | { kind: 'other'; message: string };

// Why the gateway gave no usable answer: `unreachable`/`timedOut` (the exchange broke; `noPaymentSent` when a
// Payment provably never left), `unavailable` (an HTTP 5xx page), `notUnderstood` (not the envelope, or not
// about our transaction), `tooLarge` (over the size limit). `detail` is the protocol's or transport's account.
export type GatewayFault =
  | {
      kind: 'unreachable' | 'timedOut';
      endpoint: string;
      problem: ExchangeProblem;
      noPaymentSent: boolean;
      route: string | undefined;
    }
  | { kind: 'unavailable'; status: number }
  | { kind: 'notUnderstood' | 'tooLarge'; detail: string; http?: HttpStatusAnswer };

// An answer not understood that came with a non-2xx HTTP status (a proxy's, a replay's, an error page): its
// status, and its first line when plain text (secrets blanked), which says more than the missing envelope.
export interface HttpStatusAnswer {
  status: number;
  text: string | undefined;
}

/** The faults of a gateway that could not be asked (GatewayUnreachableError, exit 4). */
export type UnreachableFault = Extract<GatewayFault, { kind: 'unreachable' | 'timedOut' | 'unavailable' }>;

/** The faults of an answer that is not understood (GatewayProtocolError, exit 5). */
export type NotUnderstoodFault = Extract<GatewayFault, { kind: 'notUnderstood' | 'tooLarge' }>;
