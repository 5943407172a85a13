#!/usr/bin/env python3
"""Write the 10,000-level files of the invalid-site cases (sitegen refuses nesting deeper than
512 levels; a recursive reader would overflow its stack on these). Run from anywhere:
`python3 make_deep_cases.py`.
"""

from __future__ import annotations

import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEPTH = 10_000


def deep_binary_plist(depth: int) -> bytes:
    """Object i (0 ≤ i < depth) is a one-element array holding object i + 1; the last is an empty
    array. 2-byte object references and offsets."""
    body = bytearray(b"bplist00")
    offsets = []
    for i in range(depth):
        offsets.append(len(body))
        body += bytes([0xA1]) + (i + 1).to_bytes(2, "big")
    offsets.append(len(body))
    body += bytes([0xA0])
    table = len(body)
    assert table < 1 << 16
    for offset in offsets:
        body += offset.to_bytes(2, "big")
    body += bytes(6) + struct.pack(">BBBQQQ", 0, 2, 2, len(offsets), 0, table)
    return bytes(body)


def cases() -> dict[str, bytes]:
    base_yml = (HERE / "_base" / "site.yml").read_text(encoding="utf-8")
    assert base_yml.startswith("title: Base\n")
    flow = "[" * DEPTH + "]" * DEPTH
    return {
        "json-deep-nesting/content/books.json": (flow + "\n").encode(),
        "plist-xml-deep-nesting/content/birds.plist": (
            '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n'
            + "<array>" * DEPTH + "</array>" * DEPTH + "\n</plist>\n").encode(),
        "plist-binary-deep-nesting/content/birds.plist": deep_binary_plist(DEPTH),
        "frontmatter-deep-nesting/content/notes/hello.md": (
            "---\ntitle: Hello\ndeep: " + flow + "\n---\nA tiny note.\n").encode(),
        # a value of a known key, so that only the depth is wrong
        "siteyml-deep-nesting/site.yml": base_yml.replace(
            "title: Base\n", "title: Base\ndescription: " + flow + "\n", 1).encode(),
    }


def main() -> None:
    for rel, data in cases().items():
        path = HERE / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{rel}: {len(data)} bytes")


if __name__ == "__main__":
    main()
