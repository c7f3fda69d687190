#!/bin/sh
# common/html/html_entities_table.h is what common/html/gen_entities.py makes of
# Python's copy of the WHATWG list (regenerate it with the script if not).
exec python3 "$TOP/common/html/gen_entities.py" --check "$TOP/common/html/html_entities_table.h"
