"""A private PostgreSQL cluster for the end-to-end scripts (Debian's postgresql package), as the
Swift tests' PostgresCluster makes one: initdb in a temporary folder, served on a free loopback
port with its socket in that folder, stopped and started at will, removed at the end. As root,
PostgreSQL's programs run as the `postgres` user."""
import glob, os, shutil, socket, subprocess, tempfile


def binaries():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return os.path.dirname(found[-1]) if found else None


class PostgresCluster:
    database = "todo"

    def __init__(self, listen="127.0.0.1", clients=()):
        """`listen`: the addresses it listens on (comma-separated); `clients`: networks (CIDR)
        besides loopback whose connections it trusts (a test's network namespaces)."""
        self.listen = listen
        self.bin = binaries()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.folder = tempfile.mkdtemp(prefix="pg-e2e-")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        if os.getuid() == 0:
            subprocess.run(["chown", "-R", "postgres:postgres", self.folder], check=True)
        self._as_postgres("initdb", "-D", f"{self.folder}/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        if clients:
            with open(f"{self.folder}/data/pg_hba.conf", "a") as hba:
                hba.writelines(f"host all all {network} trust\n" for network in clients)
        self.start()
        self._as_postgres("createdb", "-h", self.folder, "-p", str(self.port), "-U", "postgres", self.database)

    @property
    def url(self):
        return self.url_at("127.0.0.1")

    def url_at(self, host):
        return f"postgres://postgres@{host}:{self.port}/{self.database}"

    def start(self):
        self._as_postgres("pg_ctl", "-D", f"{self.folder}/data", "-l", f"{self.folder}/log", "-w", "-t", "30",
                          "-o", f"-p {self.port} -k {self.folder} -c listen_addresses={self.listen} -c fsync=off", "start")

    def stop(self):
        self._as_postgres("pg_ctl", "-D", f"{self.folder}/data", "-m", "fast", "-w", "stop")

    def psql(self, sql):
        command = ["/usr/bin/psql", "-h", self.folder, "-p", str(self.port), "-U", "postgres", "-d", self.database, "-At", "-c", sql]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--"] + command
        return subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout.strip()

    def remove(self):
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)

    def _as_postgres(self, program, *arguments):
        command = [os.path.join(self.bin, program), *arguments]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--"] + command
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
