#!/usr/bin/env python3
"""Writes create+send bodies of many shapes, from bench/create-send.json: 1 to 4 signers
and 0 to 49 extra text fields, one file each (200 in all), into the folder given. Real
traffic is a mix of shapes; a server that caches per shape (prepared statements) sees more
of them than one body shows.

    python3 bench/shapes.py /tmp/shapes && signet-bench http ... --body /tmp/shapes/*.json
"""
import copy
import json
import pathlib
import sys

out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
base = json.loads((pathlib.Path(__file__).parent / "create-send.json").read_text())
roles = ["client", "provider", "witness", "guarantor"]
for people in range(1, 5):
    for extra in range(50):
        body = copy.deepcopy(base)
        body["people"] = [
            {"name": f"Person {r.title()}", "email": f"{r}@example.com", "role": r}
            for r in roles[:people]
        ]
        content = [
            node
            for node in body["source"]["content"]
            if node["type"] != "signatureBlock"
        ]
        fields = [
            {
                "type": "paragraph",
                "content": [
                    {"type": "text", "text": f"Answer {i + 1}: "},
                    {
                        "type": "fieldTag",
                        "attrs": {"name": f"Answer {i + 1}", "type": "text", "role": roles[i % people]},
                    },
                ],
            }
            for i in range(extra)
        ]
        blocks = [{"type": "signatureBlock", "attrs": {"role": r}} for r in roles[:people]]
        body["source"]["content"] = content + fields + blocks
        (out / f"p{people}-f{extra:02}.json").write_text(json.dumps(body))
print(f"{4 * 50} bodies in {out}")
