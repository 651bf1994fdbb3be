#!/usr/bin/env bash
# The ssh launch path (docs/emulator.md, "Several hosts"): PEs on three "hosts" (127.0.0.2-4) all
# started over ssh (emulator.launch=ssh), through an sshd this test starts itself on a free high
# port of those addresses, with its own host key, user key, authorized_keys and known_hosts in
# WORKDIR: no system configuration is read or changed (as root, sshd needs its privilege
# separation directory /run/sshd, which the openssh-server package's service creates at boot:
# the test creates it if missing). Checks:
#  1. a 6-PE job (emu_slow: data checked every round) passes, each PE logged in over ssh (sshd's
#     log: 6 accepted keys), and no PE process is left once it ends;
#  2. a job that never ends (deadlock), its launcher stopped by SIGTERM: status 143, and the PEs
#     on the "remote hosts" end too (they lose the launcher), no process left under sshd;
#  3. no file left in the TMPDIR of the launcher and of the remote PEs.
# Exit status 77 (ctest: skipped) when sshd, ssh or ssh-keygen is not installed.
# Usage: ssh.sh SHMEMSIM_RUN SLOW_PROGRAM DEADLOCK_PROGRAM WORKDIR
set -u
run=$1 slow=$2 deadlock=$3 work=$4
sshd=$(command -v sshd || true)
[ -n "$sshd" ] || [ ! -x /usr/sbin/sshd ] || sshd=/usr/sbin/sshd
if [ -z "$sshd" ] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
  echo "emu_ssh: SKIP: sshd, ssh or ssh-keygen not installed (Debian: openssh-server openssh-client; scripts/setup installs them)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work/tmp" "$work/pe-tmp"
work=$(cd "$work" && pwd)
sshd_pid=
cleanup() {
  [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
}
trap cleanup EXIT
fail() {
  echo "emu_ssh: $*"
  for f in out err; do [ -f "$work/$f" ] && { echo "--- $f"; cat "$work/$f"; }; done
  [ -f "$work/sshd.log" ] && { echo "--- sshd.log"; tail -20 "$work/sshd.log"; }
  exit 1
}

# Keys: the server's host key, the user's key (authorized), and a known_hosts naming the host key.
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key" || fail "ssh-keygen failed"
ssh-keygen -q -t ed25519 -N '' -f "$work/user_key" || fail "ssh-keygen failed"
cp "$work/user_key.pub" "$work/authorized_keys"
if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
  mkdir -p /run/sshd && chmod 755 /run/sshd
fi
hosts=(127.0.0.2 127.0.0.3 127.0.0.4)
printf '%s\n' "${hosts[@]}" >"$work/hosts.txt"

# sshd on a free port (a few random tries: it exits at once if it cannot bind).
for _ in $(seq 20); do
  port=$((20000 + RANDOM % 40000))
  {
    for h in "${hosts[@]}"; do echo "ListenAddress $h:$port"; done
    cat <<EOF
HostKey $work/host_key
PidFile none
AuthorizedKeysFile $work/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
PrintMotd no
LogLevel INFO
SetEnv TMPDIR=$work/pe-tmp
EOF
  } >"$work/sshd_config"
  : >"$work/sshd.log"
  "$sshd" -D -f "$work/sshd_config" -E "$work/sshd.log" &
  sshd_pid=$!
  up=0
  for _ in $(seq 50); do
    kill -0 "$sshd_pid" 2>/dev/null || break
    n=0
    for h in "${hosts[@]}"; do
      (exec 3<>"/dev/tcp/$h/$port") 2>/dev/null && n=$((n + 1))
    done
    [ $n -eq ${#hosts[@]} ] && { up=1; break; }
    sleep 0.1
  done
  [ $up -eq 1 ] && break
  kill "$sshd_pid" 2>/dev/null
  wait "$sshd_pid" 2>/dev/null
  sshd_pid=
done
[ -n "$sshd_pid" ] || fail "could not start sshd on a free port of ${hosts[*]}"
for h in "${hosts[@]}"; do echo "[$h]:$port $(cut -d' ' -f1,2 "$work/host_key.pub")"; done >"$work/known_hosts"
cat >"$work/ssh_config" <<EOF
Host ${hosts[*]}
  Port $port
  User $(id -un)
  IdentityFile $work/user_key
  IdentitiesOnly yes
  UserKnownHostsFile $work/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  LogLevel ERROR
EOF
ssh -F "$work/ssh_config" -T "${hosts[0]}" true </dev/null 2>"$work/err" || fail "cannot log in through the test's sshd"

export TMPDIR=$work/tmp
opts=(--emulate --hosts "$work/hosts.txt" --set emulator.launch=ssh --set "emulator.ssh=ssh -F $work/ssh_config -T")
# The processes under the test's sshd (its sessions and the PEs they run), and the PEs among them.
descendants() { local c; for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
remote_pes() { descendants "$sshd_pid" | xargs -r ps -o args= -p | grep -c "shmemsim-emu-pe"; }
# Nothing left under sshd, and no ssh client of ours, within 10 s.
no_process_left() {
  for _ in $(seq 100); do
    [ -z "$(descendants "$sshd_pid")" ] && ! pgrep -f "ssh -F $work/ssh_config" >/dev/null && return 0
    sleep 0.1
  done
  return 1
}
left() { { descendants "$sshd_pid"; pgrep -f "ssh -F $work/ssh_config"; } | xargs -r ps -o pid=,args= -p; }

# 1. A job that checks its data, every PE through ssh.
logins0=$(grep -c "Accepted publickey" "$work/sshd.log")
"$run" "${opts[@]}" -np 6 --wall-time-limit 60s "$slow" >"$work/out" 2>"$work/err"
status=$?
[ "$status" -eq 0 ] || fail "exit status $status, expected 0"
grep -q "^emu_slow: OK on 6 PEs$" "$work/out" || fail "the job's data check did not pass"
logins=$(($(grep -c "Accepted publickey" "$work/sshd.log") - logins0))
[ "$logins" -eq 6 ] || fail "$logins logins through sshd, expected 6 (one per PE)"
no_process_left || fail "processes left after the job: $(left)"

# 2. A job that never ends, its launcher stopped: the PEs started over ssh end with it.
"$run" "${opts[@]}" -np 3 --set emulator.stall_timeout=0s --wall-time-limit 60s "$deadlock" >"$work/out" 2>"$work/err" &
launcher=$!
pes=0
for _ in $(seq 100); do
  pes=$(remote_pes)
  [ "$pes" -ge 3 ] && break
  sleep 0.1
done
[ "$pes" -ge 3 ] || fail "the 3 PEs did not start under sshd"
sleep 0.5
kill -TERM "$launcher"
wait "$launcher"
status=$?
[ "$status" -eq 143 ] || fail "SIGTERM: exit status $status, expected 143"
no_process_left || fail "processes left after SIGTERM: $(left)"

# 3. No temporary file left, here or by the remote PEs.
left_files=$(find "$work/tmp" "$work/pe-tmp" -mindepth 1)
[ -z "$left_files" ] || fail "files left in TMPDIR: $left_files"
echo "emu_ssh: OK"
