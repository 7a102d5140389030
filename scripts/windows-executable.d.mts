export function describeWindowsExecutable(file: Buffer): {
  pe32Plus: boolean;
  x64: boolean;
  console: boolean;
  seaResource: boolean;
  fuseFlipped: boolean;
};
