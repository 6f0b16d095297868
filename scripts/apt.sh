# Debian's package manager for scripts/services.sh (sourced). Another program running apt-get
# (unattended upgrades, another checkout's `make test`) holds its lock for a while: wait for
# it, up to APT_LOCK_WAIT seconds (default 600), instead of failing at once. apt-get waits on
# the dpkg lock itself (DPkg::Lock::Timeout); `apt-get update`'s lock on the package lists it
# does not wait for, so that is retried here.
APT_LOCK_WAIT="${APT_LOCK_WAIT:-600}"
APT_RETRY_EVERY="${APT_RETRY_EVERY:-3}"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_get() {
  local deadline=$((SECONDS + APT_LOCK_WAIT)) said="" out
  while :; do
    if out=$(DEBIAN_FRONTEND=noninteractive as_root apt-get \
      -o DPkg::Lock::Timeout="$APT_LOCK_WAIT" "$@" 2>&1); then
      return 0
    fi
    if ! grep -qE "Could not get lock|Unable to lock|Unable to acquire" <<<"$out" \
      || [ "$SECONDS" -ge "$deadline" ]; then
      printf '%s\n' "$out" >&2
      return 1
    fi
    if [ -z "$said" ]; then
      echo "services: another program holds the package manager's lock; waiting up to" \
        "${APT_LOCK_WAIT} s for it"
      said=1
    fi
    sleep "$APT_RETRY_EVERY"
  done
}

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then apt_get update -qq; apt_updated=1; fi
  apt_get install -y -qq "$@"
}
