#!/usr/bin/env bash
# The catalogues brought up to date with the code, then compiled: each app's strings go to its
# own locale/ (where it has one), everything else (the site's templates, JavaScript) to ./locale.
# Run after changing any text a person sees; translate what it leaves new (msgstr "") or fuzzy,
# then run it again. README: how to add a language (LANGUAGES="fr de" scripts/messages.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
SKIP=(--ignore=tests --ignore=bench --ignore=examples --ignore=docs --ignore=staticfiles
  --ignore=deploy --ignore=node_modules --ignore=scripts)
KEEP=(--no-obsolete --add-location=file -v 0)  # file, not line: a moved line changes nothing
for language in ${LANGUAGES:-fr}; do
  "$PY" manage.py makemessages -l "$language" -e html,txt,py "${SKIP[@]}" "${KEEP[@]}"
  "$PY" manage.py makemessages -d djangojs -l "$language" "${SKIP[@]}" "${KEEP[@]}"
done
"$PY" manage.py compilemessages --ignore=.venv --ignore=staticfiles -v 0
