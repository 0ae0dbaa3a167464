# Sourced by scripts/with-postgres and scripts/federation (not run on its own): Debian's
# PostgreSQL and Redis servers on loopback, each installed when missing, started in a folder of
# their own on a free port and stopped again. The caller is in the repository's folder.
#
#   servers_postgres_start FOLDER PORT [SERVER OPTIONS]   a cluster in FOLDER/data (made when
#                                     FOLDER has none, with an empty database "desk"; trust
#                                     auth), on 127.0.0.1:PORT, its socket and log in FOLDER
#   servers_postgres_stop FOLDER
#   servers_redis_start FOLDER PORT   redis-server on 127.0.0.1:PORT, keeping nothing on disk
#   servers_redis_stop FOLDER
#   servers_free_port                 a free TCP port on 127.0.0.1

SERVERS_SUDO=""
[ "$(id -u)" -eq 0 ] || SERVERS_SUDO="sudo"

servers_apt_install() {
  $SERVERS_SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SERVERS_SUDO apt-get install -y -qq "$@" >/dev/null
}

servers_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

servers_postgres_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# PostgreSQL's binaries (SERVERS_PG_BIN) and who runs them (SERVERS_PG_AS): the server refuses
# to run as root, so as root the cluster belongs to the package's postgres user.
servers_postgres_install() {
  if [ -z "$(servers_postgres_bindir)" ]; then
    echo "Installing PostgreSQL (Debian package postgresql)..."
    servers_apt_install postgresql
  fi
  SERVERS_PG_BIN=$(servers_postgres_bindir)
  SERVERS_PG_AS=()
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    SERVERS_PG_AS=(runuser -u postgres --)
  fi
}

servers_postgres_start() {
  local folder=$1 port=$2
  shift 2
  servers_postgres_install
  mkdir -p "$folder"
  chmod 755 "$folder"
  [ ${#SERVERS_PG_AS[@]} -eq 0 ] || chown postgres "$folder"
  local fresh=0
  if [ ! -f "$folder/data/PG_VERSION" ]; then
    "${SERVERS_PG_AS[@]}" "$SERVERS_PG_BIN/initdb" -D "$folder/data" -U postgres --auth=trust \
      -E UTF8 --locale=C.UTF-8 >/dev/null
    fresh=1
  fi
  "${SERVERS_PG_AS[@]}" "$SERVERS_PG_BIN/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $folder $*" start >/dev/null
  if [ "$fresh" -eq 1 ]; then
    "${SERVERS_PG_AS[@]}" "$SERVERS_PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres desk
  fi
}

servers_postgres_version() { "$SERVERS_PG_BIN/postgres" --version | awk '{print $3}'; }

servers_postgres_stop() {
  "${SERVERS_PG_AS[@]}" "$SERVERS_PG_BIN/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null 2>&1 || true
}

servers_redis_start() {
  local folder=$1 port=$2
  if [ ! -x /usr/bin/redis-server ]; then
    echo "Installing Redis (Debian package redis-server)..."
    servers_apt_install redis-server
  fi
  mkdir -p "$folder"
  # A cache only: everything in it is rebuilt from the database, so nothing is saved to disk;
  # past its memory the least recently used keys go.
  /usr/bin/redis-server --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
    --dir "$folder" --daemonize yes --pidfile "$folder/redis.pid" --logfile "$folder/redis.log" \
    --maxmemory 256mb --maxmemory-policy allkeys-lru
  local tries=0
  until [ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" = PONG ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
      echo "redis-server did not answer on 127.0.0.1:$port (log: $folder/redis.log)" >&2
      return 1
    fi
    sleep 0.1
  done
}

servers_redis_stop() {
  local pid
  pid=$(cat "$1/redis.pid" 2>/dev/null) || return 0
  kill "$pid" 2>/dev/null || return 0
  local tries=0
  while kill -0 "$pid" 2>/dev/null && [ "$tries" -lt 200 ]; do
    tries=$((tries + 1))
    sleep 0.05
  done
}
