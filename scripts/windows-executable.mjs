// What can be checked of the Windows file without Windows (Wine refuses Node 26): its PE header
// says a 64-bit console program, and Node's single-executable blob is inside as a resource with
// its fuse set. scripts/package.mjs refuses a file that fails it; a test reads the built file.

/** Every offset is the PE/COFF specification's: e_lfanew at 0x3c, Magic and Subsystem in the optional header. */
export function describeWindowsExecutable(file) {
  const dos = file.length > 0x40 && file.toString('latin1', 0, 2) === 'MZ';
  const pe = dos ? file.readUInt32LE(0x3c) : 0;
  const signed = dos && file.toString('latin1', pe, pe + 4) === 'PE\0\0';
  const optional = pe + 24;
  return {
    pe32Plus: signed && file.readUInt16LE(optional) === 0x20b,
    x64: signed && file.readUInt16LE(pe + 4) === 0x8664,
    // IMAGE_SUBSYSTEM_WINDOWS_CUI: a console program, so stdin, stdout and Ctrl+C work in cmd and PowerShell.
    console: signed && file.readUInt16LE(optional + 68) === 3,
    // Resource names are UTF-16; the fuse ends in :1 once a blob is injected (Node's single-executable docs).
    seaResource: file.includes(Buffer.from('NODE_SEA_BLOB', 'utf16le')),
    fuseFlipped: file.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1'),
  };
}
