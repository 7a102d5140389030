// The protocol core throws only these two, so it depends on nothing else of ours: the error boundary maps
// InvalidFieldError to exit 2, the gateway client wraps MalformedAnswerError into GatewayProtocolError.
/** What is wrong with a field, for a message in another language than `message`'s English. */
export interface FieldProblem {
  kind:
    | 'empty'
    | 'comma'
    | 'ambiguousGrouping'
    | 'bothSeparators'
    | 'badGrouping'
    | 'negative'
    | 'spaces'
    | 'leadingZero'
    | 'notPlainDecimal'
    | 'notCurrency'
    | 'tooLarge'
    | 'notTransactionId';
  /** The value as typed. */
  value: string;
}

export class InvalidFieldError extends Error {
  readonly field: string;
  readonly problem: FieldProblem | undefined;
  constructor(field: string, message: string, problem?: FieldProblem) {
    super(message);
    this.name = 'InvalidFieldError';
    this.field = field;
    this.problem = problem;
  }
}

export class MalformedAnswerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MalformedAnswerError';
  }
}
