"""The few pieces of the WebAssembly binary format the build's scripts read
and rewrite (WebAssembly Core Specification 2.0, 5 "Binary Format"):
LEB128 numbers (5.2.2), names (5.2.4), constant offsets (5.4.9) and
sections (5.5.2)."""


def read_leb(data, at):
    """The unsigned LEB128 number at `at`, and where it ends."""
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def read_sleb(data, at):
    """The signed LEB128 number at `at`, and where it ends."""
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if byte & 0x40:
                value -= 1 << shift
            return value, at


def read_i32_const(data, at):
    """The value of the constant expression `i32.const n; end` at `at` (an
    active segment's offset), and where it ends; None if the expression is
    anything else."""
    I32_CONST, END = 0x41, 0x0B
    if data[at] != I32_CONST:
        return None, at
    value, at = read_sleb(data, at + 1)
    if data[at] != END:
        return None, at
    return value, at + 1


def leb(value):
    """`value` as unsigned LEB128."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def read_name(data, at):
    """The name (a length, then UTF-8) at `at`, and where it ends."""
    length, at = read_leb(data, at)
    return data[at : at + length].decode(), at + length


def encode_name(text):
    encoded = text.encode()
    return leb(len(encoded)) + encoded


def find_section(wasm, wanted):
    """(where the section starts, where its contents start, where it ends)
    for the module's section of id `wanted`, or None."""
    at = 8  # the magic number and the version
    while at < len(wasm):
        section = wasm[at]
        size, start = read_leb(wasm, at + 1)
        if section == wanted:
            return at, start, start + size
        at = start + size
    return None


def section(wanted, contents):
    """A whole section of id `wanted` holding `contents`."""
    return bytes([wanted]) + leb(len(contents)) + contents
