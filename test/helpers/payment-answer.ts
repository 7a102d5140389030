/** A Payment answer: a TransactinID and a RequestID past 2^53, an Amount written with a trailing zero. */
export const paymentAnswer = `{
  "TransactinID": 1795289214527958198,
  "RequestID": 9007199254740993,
  "ResponseType": "Payment",
  "ResponseStatus": 10,
  "Message": "Успех",
  "TransactionContent": {
    "Service": "102",
    "account": "player-42",
    "Amount": 10.630,
    "Currency": "USD",
    "ExchangeRate": 0.921,
    "ServiceCurrency": "EUR"
  }
}`;
