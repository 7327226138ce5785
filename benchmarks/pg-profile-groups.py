#!/usr/bin/env python3
"""Groups `perf script` samples of PostgreSQL processes the way benchmarks/HISTORY.md groups callgrind's shares.

Reads `perf script -F comm,tid,period,ip,sym,dso` (with call chains) on stdin and prints two tables:
- inclusive: the share of samples (weighted by period) with a frame of the group anywhere on the stack; the groups
  nest (a foreign key check runs an executor, inside a trigger, inside the commit), so the shares overlap;
- exclusive: each sample counted once, in the innermost group on its stack (walking from the leaf to the root).
A sample whose stack holds no group's function is "other". Background processes (WAL writer, checkpointer, ...) are
their own group, found by their main function.
"""

import sys
from collections import defaultdict

# (group, functions): the first group a frame belongs to wins, in this order.
GROUPS = [
    ("background: WAL writer, checkpointer, bgwriter, autovacuum",
     {"WalWriterMain", "CheckpointerMain", "BackgroundWriterMain", "AutoVacLauncherMain", "AutoVacWorkerMain",
      "WalSndLoop", "PgArchiverMain", "WalSummarizerMain"}),
    ("WAL flush at commit (XLogFlush: write, fsync, wait)", {"XLogFlush", "XLogWrite", "issue_xlog_fsync"}),
    ("WAL insert (XLogInsert)", {"XLogInsert", "XLogInsertRecord", "XLogRecordAssemble"}),
    ("index insertion (ExecInsertIndexTuples)", {"ExecInsertIndexTuples", "index_insert", "btinsert", "_bt_doinsert"}),
    ("heap insert/update/lock", {"heap_insert", "heap_update", "heap_lock_tuple", "heap_multi_insert",
                                 "heap_delete"}),
    ("foreign key checks (RI_FKey_*)", {"RI_FKey_check_ins", "RI_FKey_check_upd", "ri_PerformCheck",
                                        "RI_FKey_fk_upd_check_required", "RI_FKey_pk_upd_check_required",
                                        "RI_FKey_noaction_upd", "RI_FKey_noaction_del"}),
    ("CHECK constraints and domains", {"ExecConstraints", "domain_check", "ExecEvalConstraintCheck",
                                       "ExecPartitionCheck"}),
    ("executor start-up (ExecutorStart)", {"standard_ExecutorStart", "ExecutorStart", "ExecInitNode",
                                           "ExecOpenIndices", "ExecInitModifyTable"}),
    ("executor end (ExecutorEnd)", {"standard_ExecutorEnd", "ExecutorEnd", "ExecEndPlan", "ExecCloseIndices"}),
    ("RETURNING and rows to the client (printtup)", {"ExecProcessReturning", "printtup"}),
    ("plan cache (GetCachedPlan: revalidation, locks)", {"GetCachedPlan", "RevalidateCachedQuery",
                                                         "AcquireExecutorLocks", "BuildCachedPlan"}),
    ("parse/analyze/plan", {"pg_parse_query", "raw_parser", "parse_analyze_fixedparams", "parse_analyze_varparams",
                            "pg_analyze_and_rewrite_fixedparams", "pg_analyze_and_rewrite_varparams",
                            "pg_plan_queries", "standard_planner", "planner"}),
    ("plpgsql triggers (the payments trigger, the journal check)", {"plpgsql_exec_trigger"}),
    ("deferred triggers at commit (the journal check)", {"AfterTriggerFireDeferred"}),
    ("commit proper (CommitTransaction)", {"CommitTransaction", "CommitTransactionCommand"}),
    ("transaction start", {"StartTransaction", "StartTransactionCommand"}),
    ("heavyweight locks", {"LockAcquireExtended", "LockRelease", "LockReleaseAll"}),
    ("sequential scans (SeqNext, a scan under a hash join: a whole table read)", {"SeqNext", "heapgettup_pagemode"}),
    ("executor run (scans, joins, expressions)", {"standard_ExecutorRun", "ExecutorRun"}),
    ("network and protocol (read, write, wait)", {"secure_read", "secure_write", "pq_getbyte", "socket_flush",
                                                  "internal_flush", "pq_recvbuf", "WaitEventSetWait",
                                                  "pq_getmessage"}),
    ("statistics report", {"pgstat_report_stat"}),
]
HASHED_SCAN_CALLERS = {"ExecHashJoin", "MultiExecHash", "ExecHashJoinImpl"}
# Scans that share ExecScan with the sequential scan but read no table whole: a CTE, a function, VALUES, an index.
OTHER_SCANS = {"CteScanNext", "FunctionNext", "ValuesNext", "IndexNext", "IndexOnlyNext", "BitmapHeapNext",
               "SubqueryNext", "WorkTableScanNext", "TidNext"}
FUNCTION_GROUP = {}
for index, (_, functions) in enumerate(GROUPS):
    for function in functions:
        FUNCTION_GROUP.setdefault(function, index)


def samples(lines):
    """Yields (period, frames from the leaf) for every sample."""
    period, frames = 0, None
    for line in lines:
        if not line.strip():
            if frames is not None:
                yield period, frames
            frames = None
            continue
        if not line[0].isspace():
            if frames is not None:
                yield period, frames
            fields = line.split()
            period = int(fields[-1]) if fields[-1].isdigit() else 1
            frames = []
            continue
        parts = line.split(None, 1)
        if len(parts) < 2 or frames is None:
            continue
        rest = parts[1].rstrip()
        dso = rest[rest.rfind("(") + 1:-1] if rest.endswith(")") else ""
        symbol = rest[:rest.rfind("(")].strip() if "(" in rest else rest.strip()
        symbol = symbol.split("+0x")[0]
        frames.append((symbol, dso))
    if frames is not None:
        yield period, frames


def main():
    inclusive, exclusive, kernel = defaultdict(int), defaultdict(int), 0
    total = 0
    for period, frames in samples(sys.stdin):
        total += period
        if frames and "kernel" in frames[0][1]:
            kernel += period
        groups = []
        for depth, (symbol, _) in enumerate(frames):
            caller = frames[depth + 1][0] if depth + 1 < len(frames) else ""
            callee = frames[depth - 1][0] if depth > 0 else ""
            if symbol == "ExecScan" and caller in HASHED_SCAN_CALLERS and callee not in OTHER_SCANS:
                # A scan node called by a hash join is the whole table it hashes or probes with (seq scan's
                # ExecSeqScan is inlined into ExecScan); its qual and its tuple deforming show under ExecScan.
                groups.append(FUNCTION_GROUP["SeqNext"])
            elif symbol in FUNCTION_GROUP:
                groups.append(FUNCTION_GROUP[symbol])
        for g in set(groups):
            inclusive[g] += period
        background = FUNCTION_GROUP["WalWriterMain"]
        exclusive[background if background in groups else (groups[0] if groups else -1)] += period
    if total == 0:
        print("no samples")
        return
    print(f"{'group':<62} {'inclusive':>9} {'exclusive':>9}")
    for index, (name, _) in enumerate(GROUPS):
        print(f"{name:<62} {100 * inclusive[index] / total:8.1f}% {100 * exclusive[index] / total:8.1f}%")
    print(f"{'other (in none of the groups)':<62} {'':>9} {100 * exclusive[-1] / total:8.1f}%")
    print(f"of all samples, in the kernel at the leaf: {100 * kernel / total:.1f}%; samples (period-weighted): {total}")


if __name__ == "__main__":
    main()
