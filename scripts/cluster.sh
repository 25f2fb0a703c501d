#!/usr/bin/env bash
# A cuarenta cluster on this machine, for trying the scale-out and for tests: a throwaway PostgreSQL,
# a Redis, N `cuarenta serve` processes, M `cuarenta worker` processes and nginx (or haproxy) in front,
# everything on 127.0.0.1 and everything (data, logs, pid files, configuration) in one directory.
#
#   bash scripts/cluster.sh up [--servers N] [--workers M] [--port P] [--dir DIR] ...
#   bash scripts/cluster.sh status [--dir DIR]      # each component: pid, alive, port, ready
#   bash scripts/cluster.sh env [--dir DIR]         # CUARENTA_PG_URL=... lines, for tests and scripts
#   bash scripts/cluster.sh down [--dir DIR] [--wipe]
#
# Options (and the environment variables that set them):
#   --servers N        CUARENTA_CLUSTER_SERVERS   server processes (default 2)
#   --workers M        CUARENTA_CLUSTER_WORKERS   computer-player workers (default 1)
#   --port P           CUARENTA_CLUSTER_PORT      the proxy's port, the one to open (default 8080)
#   --pg-port N        CUARENTA_CLUSTER_PG_PORT   PostgreSQL's port (default P+1)
#   --redis-port N     CUARENTA_CLUSTER_REDIS_PORT Redis's port (default P+2)
#   --server-port N    CUARENTA_CLUSTER_SERVER_PORT the first server's port; server K listens on
#                                                 N+K-1 (default P+10, so P+10 ... P+9+N)
#   --dir DIR          CUARENTA_CLUSTER_DIR       where everything goes (default .cluster in the repository)
#   --proxy NAME       CUARENTA_CLUSTER_PROXY     the proxy: nginx (default) or haproxy
#   --python PATH      CUARENTA_CLUSTER_PYTHON    the Python that has cuarenta installed
#                                                 (default .venv/bin/python of the repository, else python3)
#   --timeout S        CUARENTA_CLUSTER_TIMEOUT   how long `up` waits for readiness (default 60 s)
#   --log-level L      CUARENTA_CLUSTER_LOG_LEVEL the servers' --log-level (default warning)
#   --wipe             (down) remove DIR afterwards
#
# `up` installs what is missing from Debian's packages (postgresql, redis-server, nginx or haproxy,
# curl) with apt-get (through sudo when not root). `status`, `env` and `down` read the ports and counts
# that `up` wrote to DIR/cluster.conf, so they need only --dir.
#
# Exit codes: 0 done (status: every component alive and ready); 1 something failed to start or did not
# become ready (its log is shown; `down` stops what was started); 2 bad usage or a port in use;
# 3 (status, env) no cluster in DIR or not everything is up; 4 the Debian packages are missing and could
# not be installed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

die() { # die CODE MESSAGE
  local code=$1
  shift
  echo "cluster.sh: $*" >&2
  exit "$code"
}

say() { echo "cluster.sh: $*"; }

# ---------------------------------------------------------------------------------------- options

COMMAND=${1:-}
if [ -z "$COMMAND" ] || [ "$COMMAND" = "-h" ] || [ "$COMMAND" = "--help" ] || [ "$COMMAND" = "help" ]; then
  usage
  [ -n "$COMMAND" ] && exit 0
  exit 2
fi
shift
case "$COMMAND" in
  up | down | status | env) ;;
  *) die 2 "unknown command '$COMMAND' (up, down, status or env; --help)" ;;
esac

SERVERS=${CUARENTA_CLUSTER_SERVERS:-2}
WORKERS=${CUARENTA_CLUSTER_WORKERS:-1}
PORT=${CUARENTA_CLUSTER_PORT:-8080}
PG_PORT=${CUARENTA_CLUSTER_PG_PORT:-}
REDIS_PORT=${CUARENTA_CLUSTER_REDIS_PORT:-}
SERVER_PORT=${CUARENTA_CLUSTER_SERVER_PORT:-}
DIR=${CUARENTA_CLUSTER_DIR:-$ROOT/.cluster}
PROXY=${CUARENTA_CLUSTER_PROXY:-nginx}
PYTHON=${CUARENTA_CLUSTER_PYTHON:-}
TIMEOUT=${CUARENTA_CLUSTER_TIMEOUT:-60}
LOG_LEVEL=${CUARENTA_CLUSTER_LOG_LEVEL:-warning}
WIPE=0

need_value() { if [ $# -lt 2 ] || [ -z "$2" ]; then die 2 "$1 needs a value"; fi; }
while [ $# -gt 0 ]; do
  case "$1" in
    --servers) need_value "$@"; SERVERS=$2; shift 2 ;;
    --workers) need_value "$@"; WORKERS=$2; shift 2 ;;
    --port) need_value "$@"; PORT=$2; shift 2 ;;
    --pg-port) need_value "$@"; PG_PORT=$2; shift 2 ;;
    --redis-port) need_value "$@"; REDIS_PORT=$2; shift 2 ;;
    --server-port) need_value "$@"; SERVER_PORT=$2; shift 2 ;;
    --dir) need_value "$@"; DIR=$2; shift 2 ;;
    --proxy) need_value "$@"; PROXY=$2; shift 2 ;;
    --python) need_value "$@"; PYTHON=$2; shift 2 ;;
    --timeout) need_value "$@"; TIMEOUT=$2; shift 2 ;;
    --log-level) need_value "$@"; LOG_LEVEL=$2; shift 2 ;;
    --wipe) WIPE=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die 2 "unknown option '$1' (--help)" ;;
  esac
done

is_int() { [[ $1 =~ ^[0-9]+$ ]]; }
for pair in "servers:$SERVERS" "workers:$WORKERS" "port:$PORT" "timeout:$TIMEOUT"; do
  is_int "${pair#*:}" || die 2 "--${pair%%:*} must be a whole number, not '${pair#*:}'"
done
[ "$SERVERS" -ge 1 ] || die 2 "--servers must be at least 1"
PG_PORT=${PG_PORT:-$((PORT + 1))}
REDIS_PORT=${REDIS_PORT:-$((PORT + 2))}
SERVER_PORT=${SERVER_PORT:-$((PORT + 10))}
for pair in "pg-port:$PG_PORT" "redis-port:$REDIS_PORT" "server-port:$SERVER_PORT"; do
  is_int "${pair#*:}" || die 2 "--${pair%%:*} must be a whole number, not '${pair#*:}'"
done
for port in $((SERVER_PORT + SERVERS - 1)) "$PORT" "$PG_PORT" "$REDIS_PORT"; do
  if [ "$port" -gt 65535 ]; then die 2 "port $port is above 65535"; fi
done
ALL_PORTS=("$PORT" "$PG_PORT" "$REDIS_PORT")
for k in $(seq "$SERVERS"); do ALL_PORTS+=($((SERVER_PORT + k - 1))); done
if [ "$(printf '%s\n' "${ALL_PORTS[@]}" | sort -u | wc -l)" != "${#ALL_PORTS[@]}" ]; then
  die 2 "two components on one port: ${ALL_PORTS[*]}"
fi
case "$PROXY" in nginx | haproxy) ;; *) die 2 "--proxy nginx or --proxy haproxy, not '$PROXY'" ;; esac
case "$LOG_LEVEL" in
  error | warning | info | debug) ;;
  *) die 2 "--log-level error|warning|info|debug" ;;
esac

mkdir_p_abs() { mkdir -p "$1" && (cd "$1" && pwd); }
if [ "$COMMAND" = up ]; then
  DIR=$(mkdir_p_abs "$DIR")
elif [ -d "$DIR" ]; then
  DIR=$(cd "$DIR" && pwd)
fi
CONF="$DIR/cluster.conf"
RUN="$DIR/run"
LOGS="$DIR/logs"

# The settings of a cluster that was brought up in DIR win over the options (status, env and down
# need only --dir; a second `up` finds what runs).
load_conf() {
  [ -f "$CONF" ] || return 1
  local key value
  while IFS='=' read -r key value; do
    case "$key" in
      SERVERS | WORKERS | PORT | PG_PORT | REDIS_PORT | SERVER_PORT | PROXY | PYTHON | PG_BIN | PG_USER | \
        CLUSTERED | HAVE_WORKER | LOG_LEVEL)
        printf -v "$key" '%s' "$value"
        ;;
    esac
  done <"$CONF"
}

write_conf() {
  {
    echo "# written by scripts/cluster.sh up; read by status, env and down"
    for key in SERVERS WORKERS PORT PG_PORT REDIS_PORT SERVER_PORT PROXY PYTHON PG_BIN PG_USER CLUSTERED \
      HAVE_WORKER LOG_LEVEL; do
      echo "$key=${!key}"
    done
  } >"$CONF"
}

# ---------------------------------------------------------------------------------------- helpers

IS_ROOT=0
[ "$(id -u)" = 0 ] && IS_ROOT=1

# alive PID: the process exists and is not a zombie (a killed daemon whose parent does not reap it)
alive() {
  local pid=${1:-} stat state
  [ -n "$pid" ] && is_int "$pid" && kill -0 "$pid" 2>/dev/null || return 1
  if [ -r "/proc/$pid/stat" ]; then
    stat=$(<"/proc/$pid/stat") || return 1
    state=${stat##*) }
    state=${state%% *}
    [ "$state" != Z ] && [ "$state" != X ] || return 1
  fi
}

pid_of() { # pid_of FILE: the first line of a pid file, or nothing
  local pid=""
  if [ -f "$1" ]; then read -r pid <"$1" 2>/dev/null || true; fi
  echo "$pid"
}

port_in_use() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

http_code() { # http_code URL: the HTTP status, or 000 when nothing answers
  curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$1" 2>/dev/null || true
}

# A server is ready when /readyz answers 200 (its database and Redis answer); a server without
# /readyz (404) is ready when /api/health answers 200.
server_ready() {
  local code
  code=$(http_code "http://127.0.0.1:$1/readyz")
  [ "$code" = 200 ] && return 0
  [ "$code" = 404 ] && [ "$(http_code "http://127.0.0.1:$1/api/health")" = 200 ]
}

# as the cluster's superuser: without -U pg_isready logs in as the shell's user, and PostgreSQL logs a
# FATAL "role ... does not exist" at every poll
pg_ready() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -t 2 >/dev/null 2>&1; }
redis_ready() { [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]; }
proxy_ready() { [ "$(http_code "http://127.0.0.1:$PORT/api/health")" = 200 ]; }

show_log() { # show_log FILE: its last lines, to say why something did not start
  if [ -s "$1" ]; then
    echo "---- last lines of $1" >&2
    tail -n 25 "$1" >&2
    echo "----" >&2
  fi
}

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)

find_pg_bin() {
  local dir found=""
  if [ -n "${CUARENTA_CLUSTER_PG_BIN:-}" ]; then
    echo "$CUARENTA_CLUSTER_PG_BIN"
    return
  fi
  # Debian keeps each major version's programs in /usr/lib/postgresql/VERSION/bin (not on PATH)
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && found=$dir
  done
  if [ -z "$found" ]; then
    found=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    [ -x "$found/initdb" ] || found=""
  fi
  if [ -z "$found" ] && command -v initdb >/dev/null; then found=$(dirname "$(command -v initdb)"); fi
  echo "$found"
}

install_missing() {
  local packages=()
  [ -n "$(find_pg_bin)" ] || packages+=(postgresql)
  command -v redis-server >/dev/null || packages+=(redis-server)
  if [ "$PROXY" = nginx ] && [ ! -x "$NGINX" ]; then packages+=(nginx); fi
  if [ "$PROXY" = haproxy ] && [ ! -x "$HAPROXY" ]; then packages+=(haproxy); fi
  command -v curl >/dev/null || packages+=(curl)
  [ ${#packages[@]} -gt 0 ] || return 0
  say "installing ${packages[*]} (apt)"
  command -v apt-get >/dev/null || die 4 "install ${packages[*]} (no apt-get here)"
  local sudo=()
  if [ "$IS_ROOT" = 0 ]; then
    command -v sudo >/dev/null || die 4 "install ${packages[*]} (not root, and no sudo)"
    if [ -t 0 ]; then sudo=(sudo); else sudo=(sudo -n); fi
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null ||
    die 4 "apt-get update failed: install ${packages[*]} yourself"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null ||
    die 4 "apt-get install ${packages[*]} failed"
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
  HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)
}

# The cuarenta program: `python -m cuarenta` if the package has a __main__, else the venv's script,
# else the entry point called through the Python.
CUARENTA=()
find_cuarenta() {
  if "$PYTHON" -m cuarenta --help >/dev/null 2>&1; then
    CUARENTA=("$PYTHON" -m cuarenta)
  elif [ -x "$(dirname "$PYTHON")/cuarenta" ]; then
    CUARENTA=("$(dirname "$PYTHON")/cuarenta")
  elif "$PYTHON" -c 'import cuarenta.cli' 2>/dev/null; then
    CUARENTA=("$PYTHON" -c 'import sys; from cuarenta.cli import main; sys.argv[0] = "cuarenta"; main()')
  else
    die 1 "$PYTHON cannot import cuarenta: install it (pip install -e '.[web]' in a venv) or pass --python"
  fi
}

# as_pg COMMAND...: PostgreSQL's programs refuse to run as root; as root they run as the postgres user
as_pg() {
  if [ "$IS_ROOT" = 1 ]; then
    (cd "$DIR" && runuser -u "$PG_USER" -- "$@")
  else
    (cd "$DIR" && "$@")
  fi
}

# The postgres user must reach DIR: give the directories above it the search (x) bit for others
# where they lack it (reading them stays forbidden).
make_traversable() {
  local path=$1 dir dirs=()
  while [ "$path" != / ] && [ -n "$path" ]; do
    dirs=("$path" "${dirs[@]}")
    path=$(dirname "$path")
  done
  for dir in "${dirs[@]}"; do # from the top down
    if ! runuser -u "$PG_USER" -- test -x "$dir" 2>/dev/null; then
      say "letting other users traverse $dir (chmod o+x), for $PG_USER"
      chmod o+x "$dir"
    fi
  done
}

# start_bg NAME PIDFILE LOG COMMAND...: a process in its own session, its pid in PIDFILE
start_bg() {
  local name=$1 pidfile=$2 log=$3
  shift 3
  # shellcheck disable=SC2016  # $$ and $0 are the inner shell's
  nohup setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@" </dev/null >>"$log" 2>&1 &
  for _ in $(seq 50); do
    [ -s "$pidfile" ] && break
    sleep 0.1
  done
  [ -s "$pidfile" ] || die 1 "$name did not start"
}

# stop_pid NAME PID [GROUP]: TERM (the process group when GROUP=1), up to 15 s, then KILL
stop_pid() {
  local name=$1 pid=$2 group=${3:-0}
  alive "$pid" || return 0
  if [ "$group" = 1 ]; then kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true; else
    kill -TERM "$pid" 2>/dev/null || true
  fi
  for _ in $(seq 150); do
    alive "$pid" || break
    sleep 0.1
  done
  if alive "$pid"; then
    say "$name (pid $pid) did not stop in 15 s: killing it"
    if [ "$group" = 1 ]; then kill -KILL -- "-$pid" 2>/dev/null || true; fi
    kill -KILL "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
      alive "$pid" || break
      sleep 0.1
    done
  fi
  say "stopped $name (pid $pid)"
}

server_port() { echo $((SERVER_PORT + $1 - 1)); }
pg_pid() { pid_of "$DIR/pg/postmaster.pid"; }
pg_url() { echo "postgresql+psycopg://cuarenta@127.0.0.1:$PG_PORT/cuarenta"; }
redis_url() { echo "redis://127.0.0.1:$REDIS_PORT/0"; }

check_free() { # check_free NAME PORT: refuse a port something else listens on
  if port_in_use "$2"; then
    die 2 "port $2 ($1) is in use: choose other ports (--port, --pg-port, --redis-port, --server-port)"
  fi
}

# every port of a component that is not running must be free, before anything starts
check_all_free() {
  local k
  alive "$(pg_pid)" || check_free postgres "$PG_PORT"
  alive "$(pid_of "$RUN/redis.pid")" || check_free redis "$REDIS_PORT"
  for k in $(seq "$SERVERS"); do
    alive "$(pid_of "$RUN/server$k.pid")" || check_free "server$k" "$(server_port "$k")"
  done
  alive "$(pid_of "$RUN/$PROXY.pid")" || check_free "$PROXY" "$PORT"
}

# ---------------------------------------------------------------------------------------- components

start_postgres() {
  local pid
  pid=$(pg_pid)
  if alive "$pid"; then
    say "postgres is already running (pid $pid)"
    return
  fi
  check_free postgres "$PG_PORT"
  mkdir -p "$DIR/pg" "$DIR/pgsock"
  touch "$LOGS/postgres.log"
  if [ "$IS_ROOT" = 1 ]; then
    make_traversable "$DIR"
    chown "$PG_USER:" "$DIR/pgsock" "$LOGS/postgres.log"
    chown -R "$PG_USER:" "$DIR/pg"
  fi
  chmod 700 "$DIR/pg"
  if [ ! -f "$DIR/pg/PG_VERSION" ]; then
    say "initdb $DIR/pg"
    as_pg "$PG_BIN/initdb" -D "$DIR/pg" -U postgres -E UTF8 --locale=C -A trust --no-sync \
      >>"$LOGS/postgres.log" 2>&1 || {
      show_log "$LOGS/postgres.log"
      die 1 "initdb failed"
    }
    # trust, and on 127.0.0.1 only: no other address and no Unix-socket login
    echo "host all all 127.0.0.1/32 trust" | as_pg tee "$DIR/pg/pg_hba.conf" >/dev/null
  fi
  # the settings of this cluster (each start: the ports may have changed)
  cat <<EOF | as_pg tee "$DIR/pg/postgresql.auto.conf" >/dev/null
# written by scripts/cluster.sh
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$DIR/pgsock'
max_connections = 200
EOF
  as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg" -l "$LOGS/postgres.log" -w -t "$TIMEOUT" start >/dev/null 2>&1 || {
    show_log "$LOGS/postgres.log"
    die 1 "PostgreSQL did not start"
  }
  local psql=("$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres)
  if [ "$("${psql[@]}" -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'cuarenta'")" != 1 ]; then
    "${psql[@]}" -c "CREATE ROLE cuarenta LOGIN" -c "CREATE DATABASE cuarenta OWNER cuarenta" ||
      die 1 "could not create the role and database cuarenta"
  fi
  say "postgres on 127.0.0.1:$PG_PORT (pid $(pg_pid))"
}

stop_postgres() {
  local pid
  pid=$(pg_pid)
  alive "$pid" || return 0
  if as_pg "$PG_BIN/pg_ctl" -D "$DIR/pg" -m fast -w -t 30 stop >/dev/null 2>&1; then
    say "stopped postgres (pid $pid)"
  else
    stop_pid postgres "$pid"
  fi
}

start_redis() {
  local pid
  pid=$(pid_of "$RUN/redis.pid")
  if alive "$pid"; then
    say "redis is already running (pid $pid)"
    return
  fi
  check_free redis "$REDIS_PORT"
  mkdir -p "$DIR/redis"
  rm -f "$RUN/redis.pid"
  # no persistence: PostgreSQL holds the truth, Redis only fans out and queues
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --protected-mode yes --save '' --appendonly no \
    --dir "$DIR/redis" --daemonize yes --pidfile "$RUN/redis.pid" --logfile "$LOGS/redis.log" \
    </dev/null >>"$LOGS/redis-start.log" 2>&1 || {
    show_log "$LOGS/redis-start.log"
    die 1 "redis-server did not start"
  }
  for _ in $(seq 100); do
    redis_ready && break
    sleep 0.1
  done
  redis_ready || {
    show_log "$LOGS/redis.log"
    die 1 "Redis does not answer on 127.0.0.1:$REDIS_PORT"
  }
  say "redis on 127.0.0.1:$REDIS_PORT (pid $(pid_of "$RUN/redis.pid"))"
}

start_server() { # start_server K
  local k=$1 port pid
  port=$(server_port "$k")
  pid=$(pid_of "$RUN/server$k.pid")
  if alive "$pid"; then
    say "server$k is already running (pid $pid)"
    return
  fi
  check_free "server$k" "$port"
  local args=(serve --host 127.0.0.1 --port "$port" --data "$DIR/data/server$k" --database "$(pg_url)"
    --workers 0 --log-level "$LOG_LEVEL")
  if [ "$CLUSTERED" = 1 ]; then args+=(--redis "$(redis_url)" --node "server$k"); fi
  if [ "$PROXIED" = 1 ]; then args+=(--forwarded-allow-ips 127.0.0.1); fi # the proxy, on loopback
  mkdir -p "$DIR/data/server$k"
  rm -f "$RUN/server$k.pid"
  start_bg "server$k" "$RUN/server$k.pid" "$LOGS/server$k.log" env PYTHONUNBUFFERED=1 "${CUARENTA[@]}" \
    "${args[@]}"
  say "server$k on 127.0.0.1:$port (pid $(pid_of "$RUN/server$k.pid"))"
}

start_worker() { # start_worker K
  local k=$1 pid
  pid=$(pid_of "$RUN/worker$k.pid")
  if alive "$pid"; then
    say "worker$k is already running (pid $pid)"
    return
  fi
  rm -f "$RUN/worker$k.pid"
  start_bg "worker$k" "$RUN/worker$k.pid" "$LOGS/worker$k.log" env PYTHONUNBUFFERED=1 "${CUARENTA[@]}" \
    worker --database "$(pg_url)" --redis "$(redis_url)" --name "worker$k"
  say "worker$k (pid $(pid_of "$RUN/worker$k.pid"))"
}

# nofile_limit: the open files a process may have here (its hard limit), at most 40000. nginx's workers
# ask for worker_rlimit_nofile; above the hard limit that needs CAP_SYS_RESOURCE, which a container's root
# often lacks, and nginx then logs a setrlimit alert at every start
nofile_limit() {
  local hard
  hard=$(ulimit -Hn 2>/dev/null || echo 40000)
  if [ "$hard" = unlimited ] || ! is_int "$hard" || [ "$hard" -gt 40000 ]; then hard=40000; fi
  echo "$hard"
}

write_nginx_conf() {
  local k user="" nofile connections
  # nginx's master runs as root when we are; its workers then need a user of their own
  [ "$IS_ROOT" = 1 ] && user="user nobody nogroup;"
  nofile=$(nofile_limit)
  connections=16384
  if [ $((nofile - 64)) -lt $connections ]; then connections=$((nofile - 64)); fi
  mkdir -p "$DIR/nginx"
  {
    cat <<EOF
# written by scripts/cluster.sh: nginx in front of the cluster's servers (nginx -p DIR -c DIR/nginx.conf)
$user
worker_processes 2;
pid $RUN/nginx.pid;
error_log $LOGS/nginx-error.log warn;

# a proxied WebSocket is two connections: 16,384 per worker carry 8,000 sockets each (fewer where the
# machine's limit of open files, $nofile here, is lower)
worker_rlimit_nofile $nofile;
events {
    worker_connections $connections;
}

http {
    client_body_temp_path $DIR/nginx/client_body;
    proxy_temp_path $DIR/nginx/proxy;
    fastcgi_temp_path $DIR/nginx/fastcgi;
    uwsgi_temp_path $DIR/nginx/uwsgi;
    scgi_temp_path $DIR/nginx/scgi;
    server_tokens off;

    # \$uri, not \$request: no query string in the log (tokens never go in addresses, but still)
    log_format cuarenta '\$remote_addr [\$time_local] "\$request_method \$uri \$server_protocol" '
                        '\$status \$body_bytes_sent \$request_time upstream=\$upstream_addr';
    access_log $LOGS/nginx-access.log cuarenta;

    map \$http_upgrade \$connection_upgrade {
        default upgrade;
        ''      '';
    }

    upstream cuarenta {
        # every socket of a table to the same server: the page opens /ws?room=ID (docs/scaling.md), so a
        # move is told to the table's people by the server that wrote it; a request without a room
        # (the page, the API) is spread round robin
        hash \$arg_room consistent;
EOF
    for k in $(seq "$SERVERS"); do
      echo "        server 127.0.0.1:$(server_port "$k") max_fails=1 fail_timeout=5s;"
    done
    cat <<EOF
        # idle connections kept for the next requests, each for 4 s: less than the servers keep them
        # (uvicorn closes an idle connection after 5 s). Longer, nginx could send a request on a
        # connection the server is closing, and a POST is not retried: the browser would get a 502
        keepalive 32;
        keepalive_timeout 4s;
    }

    server {
        listen 127.0.0.1:$PORT;

        # a server that is down is skipped at once: refused or no answer within 1 s, try the next
        proxy_connect_timeout 1s;
        proxy_next_upstream error timeout;
        proxy_http_version 1.1;

        location /ws {
            proxy_pass http://cuarenta;
            # the app checks the socket's Origin against this Host
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_buffering off;
        }

        location / {
            proxy_pass http://cuarenta;
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
            proxy_set_header Connection "";
        }
    }
}
EOF
  } >"$DIR/nginx.conf"
}

nginx_cmd() { "$NGINX" -p "$DIR/" -c "$DIR/nginx.conf" -e "$LOGS/nginx-error.log" "$@"; }

start_nginx() {
  local pid
  pid=$(pid_of "$RUN/nginx.pid")
  if alive "$pid"; then
    say "nginx is already running (pid $pid)"
    return
  fi
  check_free nginx "$PORT"
  write_nginx_conf
  rm -f "$RUN/nginx.pid"
  nginx_cmd -t -q </dev/null >>"$LOGS/nginx-error.log" 2>&1 || {
    show_log "$LOGS/nginx-error.log"
    die 1 "nginx refuses $DIR/nginx.conf"
  }
  nginx_cmd </dev/null >>"$LOGS/nginx-error.log" 2>&1 || {
    show_log "$LOGS/nginx-error.log"
    die 1 "nginx did not start"
  }
  for _ in $(seq 50); do
    [ -s "$RUN/nginx.pid" ] && break
    sleep 0.1
  done
  say "nginx on 127.0.0.1:$PORT (pid $(pid_of "$RUN/nginx.pid"))"
}

write_haproxy_conf() {
  local k check=/api/health
  # haproxy checks each server actively: its readiness, or its health for a cuarenta without /readyz
  [ "$(http_code "http://127.0.0.1:$(server_port 1)/readyz")" = 404 ] || check=/readyz
  {
    cat <<EOF
# written by scripts/cluster.sh: haproxy in front of the cluster's servers (haproxy -db -f DIR/haproxy.cfg)
global
    # the log goes to haproxy's standard output, which is DIR/logs/haproxy.log
    log stdout format raw local0
EOF
    if [ "$IS_ROOT" = 1 ]; then printf '    user nobody\n    group nogroup\n'; fi
    cat <<EOF

defaults
    mode http
    log global
    # %HP: the path without its query string (tokens never go in addresses, but still)
    log-format "%ci [%tr] \"%HM %HP %HV\" %ST %B %Ta upstream=%si:%sp"
    option forwardfor
    # a server that refuses a connection is skipped: the request is tried again on another one
    retries 2
    option redispatch 1
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    # a client's idle connection, and the server connection that goes with it, closed after 4 s: before
    # the server closes it (uvicorn, after 5 s), so no request goes out on a connection being closed; and
    # no idle server connection is handed to another client (it could have idled past the 5 s)
    timeout http-keep-alive 4s
    http-reuse never
    # a game socket may stay quiet for long (the page pings every 20 s)
    timeout tunnel 1h

frontend cuarenta
    bind 127.0.0.1:$PORT
    http-request set-header X-Forwarded-Proto http
    default_backend servers

backend servers
    # a table's sockets to one server (/ws?room=ID); without the parameter, round robin
    balance url_param room
    hash-type consistent
    option httpchk GET $check
    http-check expect status 200
    default-server inter 1s fall 2 rise 1
EOF
    for k in $(seq "$SERVERS"); do
      echo "    server server$k 127.0.0.1:$(server_port "$k") check"
    done
  } >"$DIR/haproxy.cfg"
}

start_haproxy() {
  local pid
  pid=$(pid_of "$RUN/haproxy.pid")
  if alive "$pid"; then
    say "haproxy is already running (pid $pid)"
    return
  fi
  check_free haproxy "$PORT"
  write_haproxy_conf
  "$HAPROXY" -c -q -f "$DIR/haproxy.cfg" </dev/null >>"$LOGS/haproxy.log" 2>&1 || {
    show_log "$LOGS/haproxy.log"
    die 1 "haproxy refuses $DIR/haproxy.cfg"
  }
  rm -f "$RUN/haproxy.pid"
  start_bg haproxy "$RUN/haproxy.pid" "$LOGS/haproxy.log" "$HAPROXY" -db -f "$DIR/haproxy.cfg"
  say "haproxy on 127.0.0.1:$PORT (pid $(pid_of "$RUN/haproxy.pid"))"
}

# wait_servers FIRST LAST: until each of them is ready, at most TIMEOUT seconds
wait_servers() {
  local first=$1 last=$2 deadline k pid
  deadline=$((SECONDS + TIMEOUT))
  for k in $(seq "$first" "$last"); do
    while ! server_ready "$(server_port "$k")"; do
      pid=$(pid_of "$RUN/server$k.pid")
      if ! alive "$pid"; then
        show_log "$LOGS/server$k.log"
        die 1 "server$k stopped (run: bash scripts/cluster.sh down --dir $DIR)"
      fi
      if [ $SECONDS -ge $deadline ]; then
        show_log "$LOGS/server$k.log"
        die 1 "server$k is not ready after $TIMEOUT s (run: bash scripts/cluster.sh down --dir $DIR)"
      fi
      sleep 0.2
    done
  done
}

# ---------------------------------------------------------------------------------------- status

# every_component: lines "name pid alive port ready" (ready: yes / no / - when it has no readiness)
every_component() {
  local pid a r k port
  yn() { if "$@"; then echo yes; else echo no; fi; }
  pid=$(pg_pid)
  a=$(yn alive "$pid")
  r=no
  [ "$a" = yes ] && r=$(yn pg_ready)
  echo "postgres ${pid:--} $a $PG_PORT $r"
  pid=$(pid_of "$RUN/redis.pid")
  a=$(yn alive "$pid")
  r=no
  [ "$a" = yes ] && r=$(yn redis_ready)
  echo "redis ${pid:--} $a $REDIS_PORT $r"
  for k in $(seq "$SERVERS"); do
    port=$(server_port "$k")
    pid=$(pid_of "$RUN/server$k.pid")
    a=$(yn alive "$pid")
    r=no
    [ "$a" = yes ] && r=$(yn server_ready "$port")
    echo "server$k ${pid:--} $a $port $r"
  done
  if [ "$HAVE_WORKER" = 1 ]; then
    for k in $(seq "$WORKERS"); do
      pid=$(pid_of "$RUN/worker$k.pid")
      a=$(yn alive "$pid")
      echo "worker$k ${pid:--} $a - $a"
    done
  elif [ "$WORKERS" -gt 0 ]; then
    echo "workers - skipped - -"
  fi
  pid=$(pid_of "$RUN/$PROXY.pid")
  a=$(yn alive "$pid")
  r=no
  [ "$a" = yes ] && r=$(yn proxy_ready)
  echo "$PROXY ${pid:--} $a $PORT $r"
}

print_table() { # print_table LINES
  printf '%s\n%s\n' "component pid alive port ready" "$1" |
    awk '{ printf "%-10s %-8s %-7s %-6s %s\n", $1, $2, $3, $4, $5 }'
}

# all_up LINES: every component alive and ready (a skipped component counts as up)
all_up() {
  ! echo "$1" | awk '$3 != "skipped" && ($3 != "yes" || $5 != "yes") { bad = 1 } END { exit !bad }'
}
any_alive() { echo "$1" | awk '$3 == "yes" { found = 1 } END { exit !found }'; }

print_env() {
  local k urls=""
  for k in $(seq "$SERVERS"); do urls="${urls:+$urls,}http://127.0.0.1:$(server_port "$k")/"; done
  echo "CUARENTA_CLUSTER_DIR=$DIR"
  echo "CUARENTA_PG_URL=$(pg_url)"
  echo "CUARENTA_REDIS_URL=$(redis_url)"
  echo "CUARENTA_PROXY_URL=http://127.0.0.1:$PORT/"
  echo "CUARENTA_SERVER_URLS=$urls"
}

# ---------------------------------------------------------------------------------------- commands

cmd_up() {
  local lines
  if load_conf; then
    lines=$(every_component)
    if all_up "$lines"; then
      say "the cluster in $DIR is already up: http://127.0.0.1:$PORT/"
      print_table "$lines"
      return 0
    fi
    if any_alive "$lines"; then
      say "the cluster in $DIR is partly up (its own settings are kept): starting what is missing"
    else
      restore_options # nothing runs: the options of this `up` apply
    fi
  fi
  check_all_free
  install_missing
  PG_BIN=$(find_pg_bin)
  [ -n "$PG_BIN" ] || die 4 "PostgreSQL's initdb was not found (install postgresql)"
  command -v redis-server >/dev/null || die 4 "redis-server was not found"
  command -v redis-cli >/dev/null || die 4 "redis-cli was not found (install redis-tools)"
  PG_USER=$(id -un)
  if [ "$IS_ROOT" = 1 ]; then
    PG_USER=postgres
    id postgres >/dev/null 2>&1 || die 1 "as root PostgreSQL runs as the user postgres, which does not exist"
  fi
  if [ -z "$PYTHON" ]; then
    if [ -x "$ROOT/.venv/bin/python" ]; then PYTHON=$ROOT/.venv/bin/python; else PYTHON=python3; fi
  fi
  # a path relative to here, made absolute (not resolved: a venv's python is a link that must stay one)
  if [[ $PYTHON == */* && $PYTHON != /* ]]; then
    PYTHON="$(cd "$(dirname "$PYTHON")" && pwd)/$(basename "$PYTHON")"
  fi
  find_cuarenta
  "$PYTHON" -c 'import psycopg' 2>/dev/null ||
    die 1 "$PYTHON has no psycopg (PostgreSQL's driver): pip install -e '.[cluster]' (or 'psycopg[binary]')"
  # the cluster's options of `cuarenta serve`, and `cuarenta worker`, as far as this cuarenta has them
  local help
  help=$("${CUARENTA[@]}" serve --help 2>/dev/null || true)
  CLUSTERED=0
  if grep -q -- --redis <<<"$help" && grep -q -- --node <<<"$help"; then CLUSTERED=1; fi
  PROXIED=0
  if grep -q -- --forwarded-allow-ips <<<"$help"; then PROXIED=1; fi
  HAVE_WORKER=0
  if "${CUARENTA[@]}" worker --help >/dev/null 2>&1; then HAVE_WORKER=1; fi
  [ "$CLUSTERED" = 1 ] || say "this cuarenta's serve has no --redis/--node: the servers share PostgreSQL only"
  [ "$HAVE_WORKER" = 1 ] || [ "$WORKERS" = 0 ] || say "this cuarenta has no 'worker' command: no workers"
  write_conf
  mkdir -p "$RUN" "$LOGS"

  start_postgres
  start_redis
  # the first server migrates the database; the others start once it is ready
  start_server 1
  wait_servers 1 1
  local k
  for k in $(seq 2 "$SERVERS"); do start_server "$k"; done
  wait_servers 1 "$SERVERS"
  if [ "$HAVE_WORKER" = 1 ]; then
    for k in $(seq "$WORKERS"); do start_worker "$k"; done
  fi
  "start_$PROXY"
  local deadline=$((SECONDS + TIMEOUT))
  while true; do
    lines=$(every_component)
    all_up "$lines" && break
    if [ $SECONDS -ge $deadline ]; then
      print_table "$lines" >&2
      die 1 "not everything is up after $TIMEOUT s (logs in $LOGS; bash scripts/cluster.sh down --dir $DIR)"
    fi
    sleep 0.2
  done
  print_env >"$DIR/cluster.env"
  echo
  echo "cuarenta is up: http://127.0.0.1:$PORT/"
  echo
  print_table "$lines"
}

cmd_status() {
  load_conf || die 3 "no cluster in $DIR (bash scripts/cluster.sh up --dir $DIR)"
  local lines
  lines=$(every_component)
  print_table "$lines"
  all_up "$lines" || exit 3
}

cmd_env() {
  load_conf || die 3 "no cluster in $DIR"
  print_env
}

cmd_down() {
  if ! load_conf; then
    say "no cluster in $DIR: nothing to stop"
  else
    local pidfile pid name
    stop_pid nginx "$(pid_of "$RUN/nginx.pid")"
    stop_pid haproxy "$(pid_of "$RUN/haproxy.pid")" 1
    for pidfile in "$RUN"/worker*.pid "$RUN"/server*.pid; do
      [ -f "$pidfile" ] || continue
      name=$(basename "$pidfile" .pid)
      pid=$(pid_of "$pidfile")
      stop_pid "$name" "$pid" 1
      rm -f "$pidfile"
    done
    stop_pid redis "$(pid_of "$RUN/redis.pid")"
    stop_postgres
    rm -f "$RUN/nginx.pid" "$RUN/haproxy.pid" "$RUN/redis.pid"
  fi
  if [ "$WIPE" = 1 ] && [ -d "$DIR" ]; then
    # only a directory this script made (a cluster.conf in it), or an empty one
    if [ -f "$CONF" ] || [ -z "$(ls -A "$DIR")" ]; then
      rm -rf "$DIR"
      say "removed $DIR"
    else
      die 2 "$DIR has no cluster.conf: not removing it"
    fi
  fi
}

# the options as given, to restore after reading an old cluster.conf when nothing of it runs
GIVEN=("$SERVERS" "$WORKERS" "$PORT" "$PG_PORT" "$REDIS_PORT" "$SERVER_PORT" "$PROXY" "$PYTHON" "$LOG_LEVEL")
restore_options() {
  SERVERS=${GIVEN[0]} WORKERS=${GIVEN[1]} PORT=${GIVEN[2]} PG_PORT=${GIVEN[3]} REDIS_PORT=${GIVEN[4]}
  SERVER_PORT=${GIVEN[5]} PROXY=${GIVEN[6]} PYTHON=${GIVEN[7]} LOG_LEVEL=${GIVEN[8]}
}
PG_BIN=$(find_pg_bin)
PG_USER=$(id -un)
[ "$IS_ROOT" = 1 ] && PG_USER=postgres
CLUSTERED=0
HAVE_WORKER=0

case "$COMMAND" in
  up) cmd_up ;;
  status) cmd_status ;;
  env) cmd_env ;;
  down) cmd_down ;;
esac
