/**
 * cli-table3 border sets. No rule between body rows (a wrapped cell stays one row); without
 * colour the borders are plain ASCII, so a table survives a log file or a dumb terminal.
 */
const noRowRules = { 'left-mid': '', mid: '', 'mid-mid': '', 'right-mid': '' };

const asciiBorders = {
  top: '-',
  'top-mid': '+',
  'top-left': '+',
  'top-right': '+',
  bottom: '-',
  'bottom-mid': '+',
  'bottom-left': '+',
  'bottom-right': '+',
  left: '|',
  right: '|',
  middle: '|',
};

export function tableChars(fancy: boolean): Record<string, string> {
  return fancy ? noRowRules : { ...asciiBorders, ...noRowRules };
}
