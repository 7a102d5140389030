import { shownText } from './render/sanitize.js';
import type { Style } from './render/style.js';

// A one-line spinner on stderr while a request is out, drawn only on a terminal (else only its final line). No
// signal handler (what Ctrl+C means is the command's) and never stdout.
export interface Spinner {
  /** Stops and replaces the spinner with `finalLine` (or with nothing). */
  stop(finalLine?: string): void;
}

const unicodeFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const asciiFrames = ['-', '\\', '|', '/'];
const intervalMs = 80;

export function startSpinner(stream: NodeJS.WriteStream, text: string, style: Style): Spinner {
  if (!stream.isTTY) {
    return { stop: (finalLine) => void (finalLine === undefined ? undefined : stream.write(`${finalLine}\n`)) };
  }
  // Without colour the terminal may be a plain one: keep to ASCII there too.
  const frames = style.enabled ? unicodeFrames : asciiFrames;
  const width = Math.max(10, (stream.columns || 80) - 3);
  // The text may name an account a person typed: shown through shownText, then cut to one line.
  const plain = shownText(text);
  const shown = plain.length > width ? `${plain.slice(0, width - 1)}…` : plain;
  let frame = 0;
  const draw = () => {
    stream.write(`\r\x1b[2K${style.pending(frames[frame % frames.length] ?? '')} ${shown}`);
    frame++;
  };
  stream.write('\x1b[?25l');
  draw();
  const timer = setInterval(draw, intervalMs);
  let stopped = false;
  return {
    stop(finalLine) {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      stream.write(`\r\x1b[2K\x1b[?25h${finalLine === undefined ? '' : `${finalLine}\n`}`);
    },
  };
}
