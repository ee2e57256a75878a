"""Empties, in the main module, the element segments that write nothing but
null into the function table (WebAssembly Core Specification 2.0, 5.5.12
"Element Section").

Why: wasm-split reserves each split module's slots of the shared table with
one active segment of `ref.null func` per module (76 segments, 7 KB), "to
keep safe from downstream processors": wasm-bindgen and wasm-opt, which run
after it, then leave those slots alone. Once they have run, the segments
write what the slots already hold: a table is allocated with every element
null (4.5.3.3 "Tables"), and the split modules fill their own slots when
they load. Measured: 0.4 KiB gzip on every page.

Each such segment becomes an empty passive one (3 bytes) instead of going,
so every other segment keeps its index; run again, the script changes
nothing. It fails on a segment kind wasm-split does not write (only 0 and 4
here), on one it would empty that lies outside the table's initial size
(instantiating would trap, and must still), and on one that overlaps a
segment that writes functions (the null would overwrite them, and must
still).

Usage: drop-null-slots.py MAIN.wasm  (run by scripts/split-wasm.sh, after
wasm-opt: nothing rewrites the table after it). Rewrites the file in place.
"""
import sys

from wasmbin import find_section, leb, read_i32_const, read_leb, section

TABLE, ELEMENT = 4, 9
END, REF_NULL, REF_FUNC, FUNCREF = 0x0B, 0xD0, 0xD2, 0x70
# A passive segment of no function indices: flags 1, elemkind 0x00 (funcref), no entries.
EMPTY_PASSIVE = bytes([1, 0, 0])

path = sys.argv[1]
wasm = open(path, "rb").read()


def fail(why):
    sys.exit("drop-null-slots.py: %s: %s" % (path, why))


def read_offset(data, at):
    """An element segment's offset (an i32.const), and where it ends."""
    value, at = read_i32_const(data, at)
    if value is None or value < 0:
        fail("an element segment's offset is not a non-negative i32.const")
    return value, at


table = find_section(wasm, TABLE)
elements = find_section(wasm, ELEMENT)
if table is None or elements is None:
    fail("no table or no element section")
_, start, _ = table
# Table 0, which segments of kind 0 and 4 fill, is the function table
# (wasm-bindgen adds an externref table after it).
count, at = read_leb(wasm, start)
if count < 1 or wasm[at] != FUNCREF:
    fail("table 0 is not a funcref table")
_, at = read_leb(wasm, at + 1)  # the limits' flags
table_size, _ = read_leb(wasm, at)

begin, start, end = elements
count, at = read_leb(wasm, start)
segments = []  # (bytes, offset, length, only nulls)
for _ in range(count):
    first = at
    if wasm[at : at + 3] == EMPTY_PASSIVE:
        # One this script has emptied before (run again, it changes nothing).
        at += 3
        segments.append((EMPTY_PASSIVE, 0, 0, False))
        continue
    flags, at = read_leb(wasm, at)
    if flags not in (0, 4):
        fail("element segment of kind %d, which wasm-split does not write" % flags)
    offset, at = read_offset(wasm, at)
    length, at = read_leb(wasm, at)
    nulls = flags == 4
    for _ in range(length):
        if flags == 0:
            _, at = read_leb(wasm, at)
        elif wasm[at] == REF_NULL and wasm[at + 1] == FUNCREF and wasm[at + 2] == END:
            at += 3
        elif wasm[at] == REF_FUNC:
            _, at = read_leb(wasm, at + 1)
            if wasm[at] != END:
                fail("an element expression is not ref.func x")
            at += 1
            nulls = False
        else:
            fail("an element expression is neither ref.null func nor ref.func")
    segments.append((wasm[first:at], offset, length, nulls and length > 0))
if at != end:
    fail("the element section has bytes after its %d segments" % count)

writing = [(offset, offset + length) for _, offset, length, nulls in segments if not nulls]
out = bytearray(leb(count))
emptied = 0
for raw, offset, length, nulls in segments:
    if not nulls:
        out += raw
        continue
    if offset + length > table_size:
        fail("a null segment ends at %d, past the table's %d slots" % (offset + length, table_size))
    if any(offset < b and a < offset + length for a, b in writing):
        fail("the null segment at %d overlaps a segment that writes functions" % offset)
    out += EMPTY_PASSIVE
    emptied += 1
open(path, "wb").write(wasm[:begin] + section(ELEMENT, bytes(out)) + wasm[end:])
print("drop-null-slots.py: %d of %d element segments emptied, %d -> %d bytes" % (
    emptied, count, len(wasm), len(wasm) - (end - begin) + len(section(ELEMENT, bytes(out)))))
