#!/bin/sh
# The tokenizer against html5lib (tests/html_diff.py) on 3,000 generated
# pages; `make conformance` runs 20,000 and the real pages of the
# realpages kit too.  Needs python3 with html5lib (Debian python3-html5lib).
PY=""
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import html5lib' 2>/dev/null; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ]; then
	echo "t_html_diff: no python3 with html5lib (apt-get install python3-html5lib)"
	exit 1
fi
exec "$PY" "$TOP/tests/html_diff.py" "$TOP/$BUILD/tests/test_html_visible" --generated 3000 --seed 1
