# Sourced by the emulator's shell tests: the TCP ports process $1 listens on (from /proc).
listening_ports() {
  local pid=$1 inodes=() fd link
  for fd in /proc/"$pid"/fd/*; do
    link=$(readlink "$fd" 2>/dev/null) || continue
    [[ $link =~ ^socket:\[([0-9]+)\]$ ]] && inodes+=("${BASH_REMATCH[1]}")
  done
  [ ${#inodes[@]} -gt 0 ] || return 0
  local hex
  for hex in $(awk -v list=" ${inodes[*]} " 'NR > 1 && $4 == "0A" && index(list, " " $10 " ") { split($2, a, ":"); print a[2] }' /proc/net/tcp); do
    echo $((16#$hex))
  done
}
# The PE processes (children) of launcher $1.
children_of() {
  pgrep -P "$1"
}
