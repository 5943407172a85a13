#!/usr/bin/env python3
"""Write the binary property lists of the invalid-site cases (`content/birds.plist` of each
`plist-binary-*` folder). Run from anywhere: `python3 make_binary_cases.py`.

A binary plist ("bplist00") is: the header, the objects, an offset table (one big-endian offset per
object) and a 32-byte trailer: 6 unused bytes, the sort version, the size of an offset, the size of
an object reference, the number of objects (u64), the top object (u64) and the offset table's
offset (u64). The writer below lays out whatever objects it is given, so a case can hold
references that do not make a tree, and then damages one thing.
"""

from __future__ import annotations

import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent


def encode_object(obj, ref_size: int) -> bytes:
    """obj: ("str", text) | ("int", n) | ("array", [refs]) | ("dict", [(key_ref, value_ref), ...])."""
    kind, value = obj
    ref = lambda r: r.to_bytes(ref_size, "big")  # noqa: E731
    if kind == "str":
        data = value.encode("ascii")
        assert len(data) < 15
        return bytes([0x50 | len(data)]) + data
    if kind == "int":
        assert 0 <= value < 256
        return bytes([0x10, value])
    if kind == "array":
        assert len(value) < 15
        return bytes([0xA0 | len(value)]) + b"".join(ref(r) for r in value)
    if kind == "dict":
        assert len(value) < 15
        return (bytes([0xD0 | len(value)]) + b"".join(ref(k) for k, _ in value)
                + b"".join(ref(v) for _, v in value))
    raise ValueError(kind)


def bplist(objects, *, top: int = 0, ref_size: int = 1, offset_size: int = 1,
           num_objects: int | None = None, patch_offsets: dict[int, int] | None = None) -> bytes:
    body = bytearray(b"bplist00")
    offsets = []
    for obj in objects:
        offsets.append(len(body))
        body += encode_object(obj, ref_size)
    for index, offset in (patch_offsets or {}).items():
        offsets[index] = offset
    table_offset = len(body)
    for offset in offsets:
        body += offset.to_bytes(offset_size, "big")
    body += bytes(6) + struct.pack(">BBBQQQ", 0, offset_size, ref_size,
                                   len(objects) if num_objects is None else num_objects, top, table_offset)
    return bytes(body)


# The birds of _base/content/birds.plist: [{name: wren, count: 3}, {name: robin, count: 5}]
BIRDS = [
    ("array", [1, 2]),                 # 0: the top list
    ("dict", [(3, 5), (4, 6)]),        # 1: wren
    ("dict", [(3, 7), (4, 8)]),        # 2: robin
    ("str", "name"),                   # 3
    ("str", "count"),                  # 4
    ("str", "wren"),                   # 5
    ("int", 3),                        # 6
    ("str", "robin"),                  # 7
    ("int", 5),                        # 8
]


def cases() -> dict[str, bytes]:
    valid = bplist(BIRDS)
    # A cycle: the top list's second item is a dict whose "name" is the top list itself.
    cycle = list(BIRDS)
    cycle[2] = ("dict", [(3, 0), (4, 8)])
    # An object reference past the last object: robin's "count" refers to object 200 of 9.
    bad_ref = list(BIRDS)
    bad_ref[2] = ("dict", [(3, 7), (4, 200)])
    # "Billion laughs": robin's "count" is a list of ten references to a list of ten references …
    # twelve levels deep, so about 250 bytes stand for 10^12 strings.
    laughs = list(BIRDS)
    laughs[2] = ("dict", [(3, 7), (4, 9)])
    for level in range(12):
        laughs.append(("array", [10 + level] * 10))
    laughs.append(("str", "lol"))
    return {
        "plist-binary-billion-laughs": bplist(laughs),
        # The file ends 12 bytes into its 32-byte trailer.
        "plist-binary-truncated-trailer": valid[:-20],
        # Object 2 (robin) is said to start at byte 250 of a 100-byte file.
        "plist-binary-offset-past-end": bplist(BIRDS, patch_offsets={2: 250}),
        "plist-binary-reference-cycle": bplist(cycle),
        # 2^61 + 1 objects of 8-byte offsets: the table's size overflows 64 bits.
        "plist-binary-bad-object-count": bplist(BIRDS, offset_size=8, num_objects=(1 << 61) + 1),
        "plist-binary-reference-out-of-range": bplist(bad_ref),
    }


def main() -> None:
    import plistlib
    # The undamaged writer's output is a valid plist (checked against Python's reader).
    assert plistlib.loads(bplist(BIRDS)) == [{"name": "wren", "count": 3}, {"name": "robin", "count": 5}]
    for name, data in cases().items():
        path = HERE / name / "content" / "birds.plist"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{path.relative_to(HERE)}: {len(data)} bytes")


if __name__ == "__main__":
    main()
