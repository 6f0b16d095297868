# Sourced by the bench scripts that start scripts/serve.sh as the leader of a process group.
# stop_serve PID: serve.sh first, as Ctrl-C would: it stops its processes and the worker
# finishes what it runs (a SIGTERM to the whole group would cut the worker's pool short and log
# a traceback, read then as the server's); then anything left of the group.
stop_serve() {
  kill "$1" 2>/dev/null || true
  for _ in $(seq 30); do
    ps -o stat= -p "$1" | grep -qv Z || break
    sleep 1
  done
  kill -- -"$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
