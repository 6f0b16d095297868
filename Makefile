# Cubic Cards. `make run` (embedded, nothing to install) and `make test` (the whole suite on
# PostgreSQL and Redis) are the two commands; see the README.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Django's debug pages (tracebacks, URL lists) only when asked for: make run DEBUG=true
DEBUG ?= false
DAPHNES ?= $(shell nproc)
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
TEST_REDIS_URL ?= redis://127.0.0.1:6379/1

.PHONY: run test serve lint format services bench clean backup restore
# make backup: DATABASE_URL's database to $(BACKUP_DIR) (docs/backups.md)
BACKUP_DIR ?= backups

$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.dev: $(VENV)/.runtime
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

run: $(VENV)/.runtime
	DEBUG=$(DEBUG) $(PY) manage.py migrate --no-input -v 0
	@echo ""
	@echo "  Cubic Cards is at http://127.0.0.1:$(PORT)/   (Ctrl-C stops it)"
	@echo ""
	DEBUG=$(DEBUG) $(PY) -m cubiccards.server -b 127.0.0.1 -p $(PORT) cubiccards.asgi:application

services:
	bash scripts/services.sh

test: $(VENV)/.dev services
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) bash scripts/test.sh

serve: $(VENV)/.runtime services
	PORT=$(PORT) DAPHNES=$(DAPHNES) bash scripts/serve.sh

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(VENV)/.dev services
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) bench/engines.py --games 50 --service-games 5

backup:
	BACKUP_DIR=$(BACKUP_DIR) bash scripts/backup.sh

restore:
	FILE=$(FILE) bash scripts/restore.sh

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 test-db.sqlite3 .pytest_cache .ruff_cache
