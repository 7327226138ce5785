#!/usr/bin/env python3
"""Which indexes the plans in a PostgreSQL log read, by statement (run-index-use.sh).

Reads a server log on stdin in which auto_explain logged plans as JSON (auto_explain.log_format = json), and writes
one tab-separated line per statement that names one of the tables given as the first argument (space-separated):
how many of its plans were logged, the indexes those plans read, the sequential scans of those tables, and the
statement's text on one line. Most logged first.
"""
import json
import re
import sys
from collections import defaultdict

tables = sys.argv[1].split()
names = re.compile(r"\b(" + "|".join(map(re.escape, tables)) + r")\b", re.IGNORECASE)


def entries(lines):
    """The JSON documents of the log's plan entries: an entry's continuation lines start with a tab."""
    current = None
    for line in lines:
        if current is not None and line.startswith("\t"):
            current.append(line[1:])
            continue
        if current is not None:
            yield "".join(current)
            current = None
        if "duration:" in line and "plan:" in line:
            current = []
    if current is not None:
        yield "".join(current)


def walk(node, indexes, scans):
    if "Index Name" in node:
        indexes.add(node["Index Name"])
    if node.get("Node Type") == "Seq Scan" and node.get("Relation Name") in tables:
        scans.add(node["Relation Name"])
    for child in node.get("Plans", []):
        walk(child, indexes, scans)


runs = defaultdict(int)
read = defaultdict(set)
scanned = defaultdict(set)
for text in entries(sys.stdin):
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        continue
    query = " ".join(doc.get("Query Text", "").split())
    if not names.search(query):
        continue
    runs[query] += 1
    walk(doc["Plan"], read[query], scanned[query])

for query in sorted(runs, key=lambda q: -runs[q]):
    print(
        "\t".join(
            [
                str(runs[query]),
                " ".join(sorted(read[query])) or "-",
                " ".join("seq:" + t for t in sorted(scanned[query])) or "-",
                query[:400],
            ]
        )
    )
