#!/bin/sh
# 10,000 viewers need 10,000+ open sockets in this process and in the server: raise the limit first
# (as root the hard limit can be raised too; otherwise the soft limit up to the hard one).
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null
exec npx tsx src/run.ts "$@"
