#!/usr/bin/env bash
# tools/fuzz/watchdog.sh HANG PROGRESS CMD...: runs CMD; kills it (exit status 250) when the file
# PROGRESS, which the fuzz worker rewrites before every call, has not changed for more than HANG
# seconds: a call that hangs in C code, where the worker's own hook cannot interrupt it.
hang=$1
progress=$2
shift 2
rm -f "$progress.killed"
"$@" &
pid=$!
(
  while sleep 1; do
    if [ -e "$progress" ]; then
      now=$(date +%s)
      m=$(stat -c %Y "$progress" 2>/dev/null) || m=$now
      if [ $((now - m)) -gt "$hang" ]; then
        touch "$progress.killed"
        kill -KILL "$pid" 2>/dev/null
        exit 0
      fi
    fi
  done
) >/dev/null 2>&1 &
wd=$!
wait "$pid"
rc=$?
kill "$wd" 2>/dev/null  # (not waited for: it ends after its current sleep)
if [ -e "$progress.killed" ]; then
  rm -f "$progress.killed"
  exit 250
fi
exit "$rc"
