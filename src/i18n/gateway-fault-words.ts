import type {
  ExchangeProblem,
  GatewayFault,
  HttpStatusAnswer,
  NotUnderstoodFault,
  UnreachableFault,
} from '../protocol/gateway-fault.js';
import { shownText } from '../render/sanitize.js';
import type { Catalogue } from './en.js';

// The gateway's faults (protocol/gateway-fault.ts) in the catalogue's language: what the error classes of
// errors.ts say, and the --verbose trace.

/** Why an exchange broke, in words: "connection refused", or no complete answer within the deadline. */
export function exchangeProblemText(problem: ExchangeProblem, t: Catalogue): string {
  const said = t.gateway.failures;
  switch (problem.kind) {
    case 'refused':
      return said.refused;
    case 'hostNotFound':
      return said.hostNotFound;
    case 'certificate':
      return said.certificate(problem.otherHost, problem.code);
    case 'proxyTunnel':
      return said.proxyTunnel(problem.status);
    case 'proxyAuth':
      return said.proxyAuth;
    case 'closed':
      return said.closed;
    case 'timedOutConnecting':
      return said.timedOutConnecting;
    case 'timedOutConnected':
      return said.timedOutConnected;
    case 'notHttp':
      return said.notHttp(problem.code);
    case 'interrupted':
      return said.interrupted;
    case 'couldNotConnectWithin':
      return said.couldNotConnectWithin(problem.ms);
    case 'noAnswerWithin':
      return said.noAnswerWithin(problem.ms);
    case 'other':
      return problem.message;
  }
}

/** An HTTP status other than 2xx instead of an envelope: its plain text, passed through the sanitizer, else why it is none. */
function httpStatusText(http: HttpStatusAnswer, detail: string, t: Catalogue): string {
  return t.gateway.answeredHttpNotEnvelope(
    http.status,
    http.text === undefined ? undefined : shownText(http.text),
    detail,
  );
}

/** The message of a gateway that could not be asked, or whose answer was not understood. */
export function gatewayFaultMessage(fault: UnreachableFault | NotUnderstoodFault, t: Catalogue): string {
  const said = t.gateway;
  switch (fault.kind) {
    case 'unreachable':
    case 'timedOut': {
      const text = (fault.kind === 'timedOut' ? said.timedOut : said.unreachable)(
        fault.endpoint,
        exchangeProblemText(fault.problem, t),
      );
      return fault.noPaymentSent ? `${text}${said.noPaymentSentSuffix}` : text;
    }
    case 'unavailable':
      return said.unavailable(fault.status);
    case 'notUnderstood':
      return fault.http ? httpStatusText(fault.http, fault.detail, t) : said.answerNotUnderstood(fault.detail);
    case 'tooLarge':
      return said.answerNotUnderstood(fault.detail);
  }
}

/** What to do next: a CA for a certificate, more time for a time-out, --verbose for an answer not understood. */
export function gatewayFaultHint(fault: UnreachableFault | NotUnderstoodFault, t: Catalogue): string {
  const said = t.gateway;
  switch (fault.kind) {
    case 'unreachable':
    case 'timedOut':
      if (fault.problem.kind === 'certificate') return said.caHint;
      return fault.kind === 'timedOut' ? said.timeoutHint : said.networkHint(fault.route);
    case 'unavailable':
      return said.tryLater;
    case 'notUnderstood':
    case 'tooLarge':
      return said.verboseHint;
  }
}

/** Why a Payment's answer is missing (the reason of PaymentOutcomeUnknownError): the payment may have been made. */
export function lostAnswerReason(fault: GatewayFault, t: Catalogue): string {
  switch (fault.kind) {
    case 'unreachable':
    case 'timedOut':
      return exchangeProblemText(fault.problem, t);
    case 'unavailable':
      return t.gateway.answeredHttp(fault.status);
    case 'notUnderstood':
      return fault.http ? httpStatusText(fault.http, fault.detail, t) : t.gateway.notUnderstood(fault.detail);
    case 'tooLarge':
      return fault.detail;
  }
}
