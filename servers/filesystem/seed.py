"""The seed recipe: one user's machine with a lived-in home directory and a few system folders.

Everything random comes from `ctx.fake` / `ctx.rng` and every time from `ctx.now`, so one seed
always gives the same tree. The home directory holds a small Python project, a static website,
notes (meeting notes, a to-do list, a journal nested by year and month), documents, CSV data,
logs with ERROR/WARN/INFO lines, scripts and dotfiles; /etc, /var/log, /tmp, /opt and /root hold
root-owned files, some of them unreadable or read-only for the user.
"""

from __future__ import annotations

import datetime as dt
import re

from prove_env.world import SeedContext

from .helpers import dirname, join
from .models import Node, Shell

_PROJECTS = ["inventory-tracker", "expense-report", "weather-dashboard", "recipe-box", "habit-tracker"]
_TOPICS = ["sprint planning", "design review", "budget review", "product sync", "retrospective",
           "hiring committee", "roadmap", "client kickoff"]
_REGIONS = ["North", "South", "East", "West"]
_PRODUCTS = ["Widget", "Gadget", "Gizmo", "Doohickey"]
_CATEGORIES = ["groceries", "rent", "utilities", "transport", "dining", "health", "entertainment"]
_CITIES = ["Lisbon", "Oslo", "Denver", "Osaka", "Nairobi", "Lima"]
_COMPONENTS = ["db", "api", "auth", "cache", "worker", "scheduler"]
_INFO = ["Request handled in {n}ms", "User {user} logged in", "Cache warmed with {n} keys",
         "Job {n} finished", "Health check passed", "Loaded configuration from config/settings.yaml"]
_WARN = ["Slow query took {n}ms", "Retrying request (attempt {k} of 3)", "Disk usage at {p}%",
         "Deprecated endpoint /v1/items called", "Cache miss rate {p}%"]
_ERROR = ["Connection timeout after {k}0s", "Failed to write record {n}: constraint violation",
          "Unhandled exception in worker {k}", "Payment gateway returned 502", "Permission denied: /var/data/{n}.bin"]


class _Tree:
    """Collects the nodes of the tree; parent folders are created on demand."""

    def __init__(self, ctx: SeedContext, user: str) -> None:
        self.ctx = ctx
        self.user = user
        self.nodes: dict[str, Node] = {}
        self.dated: set[str] = set()
        self._node("/", None, "dir", None, None, 0o755, "root", "root", None)

    def _node(self, path, parent, kind, content, target, mode, owner, group, mtime) -> Node:
        if mtime is not None:
            self.dated.add(path)
        node = Node(path=path, parent=parent, name=path.rsplit("/", 1)[-1] or "/", kind=kind, content=content,
                    target=target, mode=mode, owner=owner, group=group, mtime=mtime or self.ctx.now)
        self.nodes[path] = node
        return node

    def _ensure_parent(self, path: str, owner: str) -> str:
        parent = dirname(path)
        if parent not in self.nodes:
            self.dir(parent, owner=owner)
        return parent

    def dir(self, path: str, mode: int = 0o755, owner: str | None = None, group: str | None = None,
            mtime: dt.datetime | None = None) -> None:
        owner = owner or self.user
        parent = self._ensure_parent(path, owner)
        self._node(path, parent, "dir", None, None, mode, owner, group or owner, mtime)

    def file(self, path: str, content: str, mode: int = 0o644, owner: str | None = None,
             group: str | None = None, mtime: dt.datetime | None = None) -> None:
        owner = owner or self.user
        parent = self._ensure_parent(path, owner)
        self._node(path, parent, "file", content, None, mode, owner, group or owner,
                   mtime or self.ctx.moment(-300, -1))

    def link(self, path: str, target: str) -> None:
        parent = self._ensure_parent(path, self.user)
        self._node(path, parent, "symlink", None, target, 0o777, self.user, self.user, self.ctx.moment(-200, -1))

    def finish(self) -> list[Node]:
        """Give every folder without its own time the time of its newest entry."""
        for path in sorted(self.nodes, key=lambda p: -p.count("/")):
            node = self.nodes[path]
            if node.kind == "dir" and path not in self.dated:
                times = [n.mtime for n in self.nodes.values() if n.parent == path]
                node.mtime = max(times) if times else self.ctx.moment(-300, -30)
                self.dated.add(path)
        return [self.nodes[p] for p in sorted(self.nodes)]


def seed(ctx: SeedContext) -> None:
    fake = ctx.fake
    first, last = fake.first_name(), fake.last_name()
    user = re.sub(r"[^a-z]", "", first.lower()) or "user"
    home = f"/home/{user}"
    tree = _Tree(ctx, user)

    _system(tree, ctx, user)
    tree.dir(home, mode=0o755, mtime=ctx.moment(-2, -1))
    _dotfiles(tree, ctx, home, f"{first} {last}")
    project = _python_project(tree, ctx, home, f"{first} {last}")
    _website(tree, ctx, home, f"{first} {last}")
    _scripts(tree, ctx, home)
    _notes(tree, ctx, home)
    _documents(tree, ctx, home, f"{first} {last}")
    _data(tree, ctx, home)
    _logs(tree, ctx, home, user)
    _downloads(tree, ctx, home)
    tree.dir(join(home, "pictures"), mtime=ctx.moment(-120, -60))
    tree.dir(join(home, "music"), mtime=ctx.moment(-120, -60))
    tree.link(join(home, "current"), f"projects/{project}")
    tree.link(join(home, "logs/latest.log"), "app.log")

    ctx.add(*tree.finish())
    ctx.add(Shell(id=1, user=user, groups=f"{user},developers", home=home, cwd=home, oldpwd=None))


# -- system folders -----------------------------------------------------------------------------


def _system(tree: _Tree, ctx: SeedContext, user: str) -> None:
    fake = ctx.fake
    for path in ("/bin", "/usr", "/usr/share", "/var", "/var/log", "/etc", "/home", "/opt"):
        tree.dir(path, owner="root")
    tree.dir("/root", mode=0o700, owner="root")
    tree.file("/root/.bashrc", "export PATH=/usr/local/sbin:$PATH\nalias ll='ls -l'\n", owner="root")
    tree.file("/root/notes.txt", f"Rotate backup keys before {ctx.rng.choice(['March', 'June', 'September'])}.\n", mode=0o600, owner="root")
    tree.dir("/tmp", mode=0o1777, owner="root")
    tree.file("/tmp/.X0-lock", "        1042\n", mode=0o444, owner="root")
    tree.dir(f"/tmp/systemd-private-{fake.hexify('^^^^^^^^')}", mode=0o700, owner="root")
    tree.file(f"/tmp/build-{ctx.rng.randint(1000, 9999)}.log",
              "".join(f"[{i:02d}] compiling module {fake.word()}\n" for i in range(1, 9)) + "build finished: OK\n",
              owner=user, mtime=ctx.moment(-1, 0))
    tree.file("/tmp/scratch.txt", fake.sentence() + "\n", owner=user, mtime=ctx.moment(-2, 0))

    host = f"{fake.word()}-{fake.word()}"
    tree.file("/etc/hostname", host + "\n", owner="root")
    tree.file("/etc/hosts", f"127.0.0.1\tlocalhost\n127.0.1.1\t{host}\n{fake.ipv4_private()}\tdb.internal\n"
              f"{fake.ipv4_private()}\tcache.internal\n", owner="root")
    tree.file("/etc/timezone", ctx.rng.choice(["Europe/Lisbon", "America/Denver", "Asia/Tokyo"]) + "\n", owner="root")
    tree.file("/etc/os-release", 'NAME="Debian GNU/Linux"\nVERSION_ID="13"\nVERSION="13 (trixie)"\nID=debian\n',
              owner="root")
    tree.file("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
              f"www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\n{user}:x:1000:1000::/home/{user}:/bin/bash\n",
              owner="root")
    tree.file("/etc/group", f"root:x:0:\nadm:x:4:\nshadow:x:42:\n{user}:x:1000:\ndevelopers:x:1001:{user}\n",
              owner="root")
    tree.file("/etc/shadow", f"root:*:19800:0:99999:7:::\n{user}:$y$j9T${fake.sha1()[:22]}:19800:0:99999:7:::\n",
              mode=0o640, owner="root", group="shadow")
    tree.file("/etc/fstab", "UUID=3f1c-22aa / ext4 errors=remount-ro 0 1\nUUID=9b7e-11cd /home ext4 defaults 0 2\n",
              owner="root")
    tree.file("/etc/environment", 'PATH="/usr/local/bin:/usr/bin:/bin"\nEDITOR=vim\n', owner="root")
    tree.file("/etc/ssh/sshd_config", "Port 22\nPermitRootLogin no\nPasswordAuthentication no\n"
              "PubkeyAuthentication yes\nX11Forwarding no\nMaxAuthTries 3\n", owner="root")
    tree.file("/etc/nginx/nginx.conf", "user www-data;\nworker_processes auto;\n\nevents {\n    worker_connections 768;\n"
              "}\n\nhttp {\n    sendfile on;\n    keepalive_timeout 65;\n    include /etc/nginx/sites-enabled/*;\n}\n",
              owner="root")
    tree.file("/etc/nginx/sites-available/default.conf", f"server {{\n    listen 80;\n    server_name {fake.domain_name()};\n"
              "    root /var/www/html;\n    location / {\n        try_files $uri $uri/ =404;\n    }\n}\n", owner="root")
    tree.file("/etc/cron.d/backup", f"30 2 * * * {user} /home/{user}/scripts/backup.sh >> /tmp/backup.log 2>&1\n",
              owner="root")

    tree.file("/var/log/syslog", "".join(
        f"{_stamp(ctx.moment(-2, 0))} {host} systemd[1]: {ctx.rng.choice(['Started', 'Stopped', 'Reloaded'])} "
        f"{fake.word()}.service\n" for _ in range(12)), mode=0o640, owner="root", group="adm")
    tree.file("/var/log/auth.log", f"{_stamp(ctx.moment(-1, 0))} {host} sshd[811]: Accepted publickey for {user}\n",
              mode=0o640, owner="root", group="adm")
    tree.file("/var/log/nginx/access.log", "".join(
        f'{fake.ipv4_public()} - - [{_stamp(ctx.moment(-3, 0))}] "GET /{fake.uri_path()} HTTP/1.1" '
        f"{ctx.rng.choice([200, 200, 200, 304, 404, 500])} {ctx.rng.randint(200, 9000)}\n" for _ in range(15)),
        owner="root")
    tree.file("/usr/share/motd", "Welcome! Backups run nightly at 02:30.\n", owner="root")
    tree.dir("/opt/team", mode=0o775, owner="root", group="developers")
    tree.file("/opt/team/README.txt", "Shared scratch space for the developers group.\n",
              mode=0o664, owner="root", group="developers")
    tree.file("/opt/team/oncall.txt", "".join(f"week {i}: {ctx.fake.first_name()}\n" for i in range(1, 7)),
              mode=0o644, owner="root", group="developers")


def _stamp(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


# -- home ---------------------------------------------------------------------------------------


def _dotfiles(tree: _Tree, ctx: SeedContext, home: str, full_name: str) -> None:
    fake = ctx.fake
    tree.file(join(home, ".bashrc"), "# ~/.bashrc\nexport EDITOR=vim\nexport PATH=$HOME/scripts:$PATH\n"
              "alias ll='ls -alF'\nalias gs='git status'\n")
    tree.file(join(home, ".profile"), "if [ -f ~/.bashrc ]; then\n    . ~/.bashrc\nfi\n")
    tree.file(join(home, ".gitconfig"), f"[user]\n\tname = {full_name}\n\temail = {fake.email()}\n"
              "[init]\n\tdefaultBranch = main\n")
    tree.dir(join(home, ".ssh"), mode=0o700)
    tree.file(join(home, ".ssh/config"), f"Host build\n    HostName {fake.ipv4_private()}\n    User deploy\n",
              mode=0o600)
    tree.file(join(home, ".ssh/known_hosts"), "".join(
        f"{fake.ipv4_private()} ssh-ed25519 AAAAC3Nza{fake.sha1()[:24]}\n" for _ in range(3)))
    tree.file(join(home, ".config/editor/settings.json"),
              '{\n  "theme": "solarized-dark",\n  "tab_size": 4,\n  "format_on_save": true\n}\n')
    tree.file(join(home, ".cache/thumbnails/index.txt"), "".join(f"{fake.md5()}\n" for _ in range(4)))


def _python_project(tree: _Tree, ctx: SeedContext, home: str, author: str) -> str:
    fake, rng = ctx.fake, ctx.rng
    name = rng.choice(_PROJECTS)
    pkg = name.replace("-", "_")
    root = join(home, f"projects/{name}")
    port = rng.choice([8000, 8080, 5000])
    entity = {"inventory": "Item", "expense": "Expense", "weather": "Reading", "recipe": "Recipe",
              "habit": "Habit"}[name.split("-")[0]]
    tree.file(join(root, "README.md"), f"# {name}\n\n{fake.paragraph(nb_sentences=3)}\n\n## Setup\n\n"
              "```\npip install -r requirements.txt\npython -m " + pkg + ".main\n```\n\n## Usage\n\n"
              f"{fake.paragraph(nb_sentences=2)}\n\nMaintainer: {author}\n")
    tree.file(join(root, "LICENSE"), f"MIT License\n\nCopyright (c) 2025 {author}\n\n"
              "Permission is hereby granted, free of charge, to any person obtaining a copy of this software.\n",
              mode=0o444)
    tree.file(join(root, ".gitignore"), "__pycache__/\n*.pyc\n.venv/\n.env\n")
    tree.file(join(root, "requirements.txt"), "flask==3.0.3\nsqlalchemy==2.0.36\npyyaml==6.0.2\npytest==8.3.3\n")
    tree.file(join(root, "pyproject.toml"), f'[project]\nname = "{name}"\nversion = "0.{rng.randint(1, 9)}.0"\n'
              f'requires-python = ">=3.11"\n')
    tree.file(join(root, "config/settings.yaml"),
              f"app:\n  name: {name}\n  debug: false\n  port: {port}\n  workers: {rng.choice([2, 4])}\n"
              f"database:\n  host: db.internal\n  port: 5432\n  name: {pkg}\n  pool_size: 5\n"
              f"logging:\n  level: INFO\n  file: logs/app.log\n")
    tree.file(join(root, "config/logging.ini"), "[loggers]\nkeys=root\n\n[logger_root]\nlevel=INFO\nhandlers=file\n")
    src = join(root, f"src/{pkg}")
    tree.file(join(src, "__init__.py"), f'"""{name}: {fake.catch_phrase().lower()}."""\n\n__version__ = "0.1.0"\n')
    tree.file(join(src, "main.py"), f"from {pkg}.app import create_app\n\n\ndef main() -> None:\n"
              f"    app = create_app()\n    app.run(port={port})\n\n\nif __name__ == \"__main__\":\n    main()\n")
    tree.file(join(src, "app.py"), "from flask import Flask\n\nfrom .api.routes import register\n\n\n"
              "def create_app() -> Flask:\n    app = Flask(__name__)\n    register(app)\n    return app\n")
    tree.file(join(src, "models.py"), f"from dataclasses import dataclass\n\n\n@dataclass\nclass {entity}:\n"
              f"    id: int\n    name: str\n    quantity: int = 0\n\n    def total(self) -> int:\n"
              f"        # TODO: include archived {entity.lower()}s\n        return self.quantity\n")
    tree.file(join(src, "utils.py"), "import re\n\n\ndef slugify(text: str) -> str:\n"
              '    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")\n\n\n'
              "def chunks(items, size):\n    # TODO: handle size <= 0\n"
              "    for i in range(0, len(items), size):\n        yield items[i:i + size]\n")
    tree.file(join(src, "api/__init__.py"), "")
    tree.file(join(src, "api/routes.py"), "from .v1.endpoints import blueprint\n\n\ndef register(app):\n"
              "    app.register_blueprint(blueprint, url_prefix='/api/v1')\n")
    tree.file(join(src, "api/v1/__init__.py"), "")
    tree.file(join(src, "api/v1/endpoints.py"), f"from flask import Blueprint, jsonify\n\n"
              f"blueprint = Blueprint('{pkg}', __name__)\n\n\n@blueprint.get('/{entity.lower()}s')\n"
              f"def list_{entity.lower()}s():\n    # FIXME: paginate\n    return jsonify([])\n")
    tree.file(join(root, "tests/__init__.py"), "")
    tree.file(join(root, "tests/conftest.py"), "import pytest\n\n\n@pytest.fixture\ndef sample():\n"
              "    return [1, 2, 3]\n")
    tree.file(join(root, "tests/test_models.py"), f"from {pkg}.models import {entity}\n\n\n"
              f"def test_total():\n    assert {entity}(id=1, name='a', quantity=3).total() == 3\n")
    tree.file(join(root, "tests/test_utils.py"), f"from {pkg}.utils import slugify\n\n\n"
              "def test_slugify():\n    assert slugify('Hello World') == 'hello-world'\n")
    tree.file(join(root, "docs/index.md"), f"# {name} documentation\n\n{fake.paragraph(nb_sentences=3)}\n")
    tree.file(join(root, "docs/api.md"), f"# API\n\n- `GET /api/v1/{entity.lower()}s` lists all "
              f"{entity.lower()}s.\n\n{fake.paragraph(nb_sentences=2)}\n")
    return name


def _website(tree: _Tree, ctx: SeedContext, home: str, author: str) -> None:
    fake = ctx.fake
    root = join(home, "projects/portfolio-site")
    tree.file(join(root, "index.html"), f"<!doctype html>\n<html>\n<head>\n  <title>{author}</title>\n"
              '  <link rel="stylesheet" href="css/style.css">\n</head>\n<body>\n'
              f"  <h1>{author}</h1>\n  <p>{fake.sentence()}</p>\n  <script src=\"js/main.js\"></script>\n"
              "</body>\n</html>\n")
    tree.file(join(root, "about.html"), f"<!doctype html>\n<html>\n<body>\n  <h1>About</h1>\n"
              f"  <p>{fake.paragraph(nb_sentences=3)}</p>\n</body>\n</html>\n")
    tree.file(join(root, "css/style.css"), "body {\n  font-family: sans-serif;\n  margin: 0 auto;\n"
              "  max-width: 760px;\n}\n\nh1 {\n  color: #2a6f97;\n}\n")
    tree.file(join(root, "js/main.js"), "document.addEventListener('DOMContentLoaded', () => {\n"
              "  console.log('ready');\n});\n")
    tree.file(join(root, "README.md"), f"# portfolio-site\n\nPersonal website of {author}.\n")
    tree.dir(join(root, "assets"), mtime=ctx.moment(-200, -100))


def _scripts(tree: _Tree, ctx: SeedContext, home: str) -> None:
    tree.file(join(home, "scripts/backup.sh"), "#!/bin/sh\nset -e\ntar czf /tmp/home-backup.tgz "
              "$HOME/documents $HOME/notes\necho \"backup done\"\n", mode=0o755)
    tree.file(join(home, "scripts/deploy.sh"), "#!/bin/sh\nset -e\nrsync -a ~/projects/portfolio-site/ "
              "build:/var/www/html/\n", mode=0o755)
    tree.file(join(home, "scripts/cleanup.py"), "#!/usr/bin/env python3\n\"\"\"Delete files older than 30 days "
              "from ~/downloads.\"\"\"\n\nDAYS = 30\n", mode=0o755)
    tree.file(join(home, "scripts/README.md"), "Small helper scripts. `backup.sh` runs nightly from cron.\n")



# each recipe note's ingredients, as many as the note lists (4 to 7) from the top
RECIPES = {
    "pasta-carbonara": ("spaghetti", "eggs", "pecorino", "guanciale", "black pepper", "salt", "parmesan"),
    "lentil-curry": ("red lentils", "onion", "garlic", "ginger", "curry powder", "coconut milk", "spinach"),
    "banana-bread": ("ripe bananas", "flour", "butter", "sugar", "eggs", "baking soda", "walnuts"),
}


def _notes(tree: _Tree, ctx: SeedContext, home: str) -> None:
    fake, rng = ctx.fake, ctx.rng
    notes = join(home, "notes")
    topics = rng.sample(_TOPICS, 5)
    for i, topic in enumerate(topics):
        when = ctx.now - dt.timedelta(days=7 * (len(topics) - i) + rng.randint(0, 3))
        people = [fake.first_name() for _ in range(rng.randint(3, 5))]
        body = [f"# {topic.title()} - {when:%Y-%m-%d}", "", f"Attendees: {', '.join(people)}", "", "## Discussion"]
        body += [f"- {fake.sentence()}" for _ in range(rng.randint(3, 5))]
        if topic == "budget review":
            body.append(f"- The Q{rng.randint(1, 4)} budget is {rng.randint(20, 90)}k; travel is over budget.")
        body += ["", "## Action items"]
        body += [f"- [ ] {rng.choice(people)}: {fake.sentence(nb_words=6)}" for _ in range(rng.randint(2, 3))]
        tree.file(join(notes, f"meeting-{when:%Y-%m-%d}.md"), "\n".join(body) + "\n",
                  mtime=when.replace(hour=17, minute=0))
    todo = ["# To do", ""]
    todo += [f"- [{'x' if rng.random() < 0.3 else ' '}] {fake.sentence(nb_words=5).rstrip('.')}" for _ in range(8)]
    tree.file(join(notes, "todo.md"), "\n".join(todo) + "\n", mtime=ctx.moment(-3, -1))
    tree.file(join(notes, "ideas.md"), "# Ideas\n\n" + "".join(f"- {fake.catch_phrase()}\n" for _ in range(6)))
    tree.file(join(notes, "reading-list.md"), "# Reading list\n\n" + "".join(
        f"- *{fake.catch_phrase().title()}* by {fake.name()}\n" for _ in range(7)))
    tree.file(join(notes, "passwords-hint.txt"), "Hints only, never the passwords themselves.\n"
              f"bank: pet name + year\nemail: {fake.word()} backwards\n", mode=0o600)
    for name, needs in RECIPES.items():
        count = rng.randint(4, 7)
        for _ in range(count):
            fake.word()  # drawn as when the lists were random words, so that every text drawn after stays
        ingredients = "".join(f"- {item}\n" for item in needs[:count])
        steps = "".join(f"{k}. {fake.sentence()}\n" for k in range(1, rng.randint(4, 6)))
        tree.file(join(notes, f"recipes/{name}.md"), f"# {name.replace('-', ' ').title()}\n\n## Ingredients\n\n"
                  f"{ingredients}\n## Steps\n\n{steps}", mode=0o444 if name == "banana-bread" else 0o644)
    for days_back in sorted(rng.sample(range(5, 330), 16), reverse=True):
        day = ctx.now - dt.timedelta(days=days_back)
        path = join(notes, f"journal/{day:%Y}/{day:%m}/{day:%d}.md")
        mood = rng.choice(["good", "tired", "great", "okay", "stressed"])
        tree.file(path, f"# {day:%A, %B %d, %Y}\n\nMood: {mood}\n\n{fake.paragraph(nb_sentences=4)}\n",
                  mtime=day.replace(hour=22, minute=15))


def _documents(tree: _Tree, ctx: SeedContext, home: str, full_name: str) -> None:
    fake, rng = ctx.fake, ctx.rng
    docs = join(home, "documents")
    jobs = "".join(f"### {fake.job()} at {fake.company()}\n\n{fake.paragraph(nb_sentences=2)}\n\n" for _ in range(3))
    tree.file(join(docs, "resume.md"), f"# {full_name}\n\n{fake.email()} | {fake.phone_number()}\n\n"
              f"## Experience\n\n{jobs}## Skills\n\nPython, SQL, {fake.word().title()}, {fake.word().title()}\n")
    tree.file(join(docs, "cover-letter.txt"), f"Dear Hiring Manager,\n\n{fake.paragraph(nb_sentences=5)}\n\n"
              f"{fake.paragraph(nb_sentences=4)}\n\nSincerely,\n{full_name}\n")
    landlord = fake.name()
    tree.file(join(docs, "contracts/lease-agreement.txt"), f"RESIDENTIAL LEASE AGREEMENT\n\nLandlord: {landlord}\n"
              f"Tenant: {full_name}\nAddress: {fake.street_address()}, {fake.city()}\n"
              f"Monthly rent: ${rng.randint(12, 30) * 100}\nTerm: 12 months\n\n{fake.paragraph(nb_sentences=4)}\n",
              mode=0o444)
    tree.file(join(docs, "contracts/freelance-contract.txt"), f"CONTRACT FOR SERVICES\n\nClient: {fake.company()}\n"
              f"Rate: ${rng.randint(50, 150)}/hour\n\n{fake.paragraph(nb_sentences=3)}\n")
    rows = ["date,vendor,category,amount"]
    for _ in range(14):
        day = ctx.now - dt.timedelta(days=rng.randint(30, 360))
        rows.append(f"{day:%Y-%m-%d},{fake.company().replace(',', '')},{rng.choice(_CATEGORIES)},"
                    f"{rng.randint(5, 400)}.{rng.randint(0, 99):02d}")
    tree.file(join(docs, "taxes/2025/receipts.csv"), "\n".join(rows) + "\n")
    tree.file(join(docs, "taxes/2025/summary.txt"), f"Tax year 2025\nFiled: no\nAccountant: {fake.name()}\n")
    tree.file(join(docs, "letters/reference-letter.txt"), f"To whom it may concern,\n\n"
              f"{fake.paragraph(nb_sentences=4)}\n\n{fake.name()}\n")


def _data(tree: _Tree, ctx: SeedContext, home: str) -> None:
    fake, rng = ctx.fake, ctx.rng
    data = join(home, "data")
    sales = ["month,region,product,units,revenue"]
    for month in range(1, 13):
        for region in rng.sample(_REGIONS, 3):
            product = rng.choice(_PRODUCTS)
            units = rng.randint(10, 400)
            sales.append(f"2025-{month:02d},{region},{product},{units},{units * rng.choice([12, 15, 20, 25])}")
    sales_text = "\n".join(sales) + "\n"
    stamp = ctx.moment(-60, -20)
    tree.file(join(data, "sales-2025.csv"), sales_text, mtime=stamp)
    tree.file(join(data, "backup/sales-2025.csv"), sales_text, mtime=stamp)
    expenses = ["date,category,amount,note"]
    for _ in range(30):
        day = ctx.now - dt.timedelta(days=rng.randint(1, 90))
        expenses.append(f"{day:%Y-%m-%d},{rng.choice(_CATEGORIES)},{rng.randint(3, 250)}.{rng.randint(0, 99):02d},"
                        f"{fake.word()}")
    tree.file(join(data, "expenses.csv"), "\n".join([expenses[0], *sorted(expenses[1:])]) + "\n",
              mtime=ctx.moment(-2, -1))
    temps = ["city,jan,apr,jul,oct"]
    temps += [f"{city},{rng.randint(-5, 15)},{rng.randint(5, 20)},{rng.randint(18, 35)},{rng.randint(5, 22)}"
              for city in _CITIES]
    tree.file(join(data, "temperatures.csv"), "\n".join(temps) + "\n")
    contacts = ["name,email,phone,company"]
    contacts += [f"{fake.name()},{fake.email()},{fake.numerify('###-###-####')},{fake.company().replace(',', '')}"
                 for _ in range(15)]
    tree.file(join(data, "contacts.csv"), "\n".join(contacts) + "\n")
    tree.file(join(data, "exports/report-q3.csv"), "metric,value\nusers,%d\nsessions,%d\nconversion,%.2f\n"
              % (rng.randint(900, 5000), rng.randint(5000, 40000), rng.uniform(0.5, 5)))
    tree.file(join(data, "exports/report-q4.csv"), "metric,value\nusers,%d\nsessions,%d\nconversion,%.2f\n"
              % (rng.randint(900, 5000), rng.randint(5000, 40000), rng.uniform(0.5, 5)))
    tree.file(join(data, "exports/README.txt"), "Quarterly exports from the analytics dashboard.\n")


def _log_lines(ctx: SeedContext, count: int, start_days: float, end_days: float, user: str,
               weights: tuple[int, int, int] = (14, 4, 2)) -> list[str]:
    rng, fake = ctx.rng, ctx.fake
    lines = []
    for _ in range(count):
        moment = ctx.moment(start_days, end_days, step_minutes=1) + dt.timedelta(seconds=rng.randint(0, 59))
        level = rng.choices(["INFO", "WARN", "ERROR"], weights=weights)[0]
        template = rng.choice({"INFO": _INFO, "WARN": _WARN, "ERROR": _ERROR}[level])
        message = template.format(n=rng.randint(1, 999), k=rng.randint(1, 3), p=rng.randint(70, 99),
                                  user=rng.choice([user, fake.user_name()]))
        lines.append(f"{_stamp(moment)} {level} [{rng.choice(_COMPONENTS)}] {message}")
    return sorted(lines)


def _logs(tree: _Tree, ctx: SeedContext, home: str, user: str) -> None:
    logs = join(home, "logs")
    app = _log_lines(ctx, 80, -3, 0, user)
    tree.file(join(logs, "app.log"), "\n".join(app) + "\n", mtime=ctx.now - dt.timedelta(minutes=5))
    tree.file(join(logs, "app.log.1"), "\n".join(_log_lines(ctx, 60, -10, -3, user)) + "\n",
              mtime=ctx.now - dt.timedelta(days=3))
    tree.file(join(logs, "error.log"), "\n".join(_log_lines(ctx, 15, -10, 0, user, (0, 1, 4))) + "\n",
              mtime=ctx.now - dt.timedelta(hours=2))
    for day in range(1, 4):
        start = -40 - day
        tree.file(join(logs, f"archive/app-{(ctx.now + dt.timedelta(days=start)):%Y-%m-%d}.log"),
                  "\n".join(_log_lines(ctx, 25, start, start + 1, user)) + "\n",
                  mtime=ctx.now + dt.timedelta(days=start + 1))


def _downloads(tree: _Tree, ctx: SeedContext, home: str) -> None:
    fake, rng = ctx.fake, ctx.rng
    dl = join(home, "downloads")
    number = rng.randint(1000, 1999)
    total = 0
    lines = [f"INVOICE #{number}", f"Bill to: {fake.company()}", ""]
    for _ in range(3):
        amount = rng.randint(20, 900)
        total += amount
        lines.append(f"{fake.bs().capitalize():<45} ${amount}")
    lines += ["", f"Total due: ${total}"]
    tree.file(join(dl, f"invoice-{number}.txt"), "\n".join(lines) + "\n", mtime=ctx.moment(-40, -5))
    tree.file(join(dl, "report final.txt"), f"Quarterly report\n\n{fake.paragraph(nb_sentences=5)}\n",
              mtime=ctx.moment(-20, -2))
    tree.file(join(dl, "report final (1).txt"), f"Quarterly report\n\n{fake.paragraph(nb_sentences=5)}\n",
              mtime=ctx.moment(-20, -2))
    tree.file(join(dl, "installer-notes.txt"), "1. Download the package\n2. Verify the checksum\n3. Run the installer\n")
    tree.file(join(dl, "podcast-episodes.txt"), "".join(f"{i}. {fake.catch_phrase()}\n" for i in range(1, 11)))
