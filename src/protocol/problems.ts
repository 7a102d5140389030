/**
 * The protocol core throws only these two, so that it depends on nothing else of ours;
 * the error boundary maps InvalidFieldError to exit 2 and the gateway client wraps
 * MalformedAnswerError into GatewayProtocolError (exit 5).
 */
export class InvalidFieldError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'InvalidFieldError';
    this.field = field;
  }
}

export class MalformedAnswerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MalformedAnswerError';
  }
}
