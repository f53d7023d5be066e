# Sourced by .ci/run: a throwaway PostgreSQL server for the durable-run tests (tests/test_durable*.py).
# Installs Debian's postgresql package when no server binaries are found, creates a cluster in a temporary
# folder, starts it on a free local port and exports CONDUCTOR_TEST_POSTGRES_URL; stop_postgres stops it.
# initdb refuses to run as root: as root, the cluster belongs to the package's postgres user.

find_pg_bin() {
    local dir
    for dir in $(command -v pg_ctl 2>/dev/null | xargs -r dirname) $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

start_postgres() {
    local bin
    if ! bin=$(find_pg_bin); then
        echo "CI: installing PostgreSQL from Debian's packages"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        bin=$(find_pg_bin)
    fi
    pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/conductor-pg.XXXXXX")
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    local as=()
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres "$pg_dir"
        as=(runuser -u postgres --)
    fi
    "${as[@]}" "$bin/initdb" -D "$pg_dir/data" -U conductor --auth=trust >/dev/null
    "${as[@]}" "$bin/pg_ctl" -D "$pg_dir/data" -o "-p $port -k $pg_dir -c listen_addresses=127.0.0.1" \
        -l "$pg_dir/log" -w start >/dev/null
    pg_stop=("${as[@]}" "$bin/pg_ctl" -D "$pg_dir/data" -m immediate stop)
    export CONDUCTOR_TEST_POSTGRES_URL="postgresql://conductor@127.0.0.1:$port/postgres"
    echo "CI: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on port $port"
}

stop_postgres() {
    if [ -n "${pg_dir:-}" ]; then
        "${pg_stop[@]}" >/dev/null 2>&1 || true
        rm -rf "$pg_dir"
    fi
}
