#!/bin/bash
# --format=json: the summary as one JSON document, the last line of
# stderr, for bots and CI: the series chosen, every patch with its
# attestation and every check (ok / warn / fail) with its message and
# suggestion, read back with a real JSON parser (python3's json). Mail is
# hostile: quotes, backslashes, control characters and invalid UTF-8 in
# a subject and a trailer still give valid JSON, with the text kept.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
plan 28

R=$TRASH/repo
make_repo "$R"
(cd "$R" &&
 echo "int pool;" >pool.c && git add pool.c && git commit -qm "mm: add the pool" &&
 git tag -a v6.6 -m v6.6 && git tag base2)
add=$(git -C "$R" rev-parse HEAD)
pat="Pat Contributor <pat@example.com>"
esc=$(printf '\033')
(cd "$R" && git checkout -q -b topic base2 &&
 export GIT_AUTHOR_NAME="Pat Contributor" GIT_AUTHOR_EMAIL=pat@example.com &&
 echo a >a.c && git add a.c &&
 git commit -qm "a: fix the pool" -m "Why." \
	-m "Fixes: ${add:0:8} (\"mm: add the pool\")
Signed-off-by: $pat" &&
 echo b >b.c && git add b.c &&
 git commit -qm "b: a \"quoted\" \\ back" -m "Why." \
	-m "Reported-by: Rita <rita@example.com>
Closes: bug \"7\" \\ ${esc}[31mred$(printf '\377\376') end
Signed-off-by: $pat" &&
 echo c >c.c && git add c.c &&
 git commit -qm "c: never signed" -m "Why." -m "Signed-off-by: Sam <sam@example.com>")
(cd "$R" && git format-patch -q --thread=shallow --cover-letter -o "$TRASH/p" base2..topic)
to_mbox "$TRASH/s.mbox" "$TRASH"/p/*.patch
id=$(msgid_of "$TRASH/p/0000-cover-letter.patch")

cd "$R" || exit 1
"$LORE_AM" --format=json -m "$TRASH/s.mbox" "$id" >"$TRASH/out" 2>"$TRASH/err"
ok $? "exit 0 (the gate warns)"
check "stdout is the mbox" grep -q "^Subject: \[PATCH 3/3\] c: never signed" "$TRASH/out"
tail -n 1 "$TRASH/err" >"$TRASH/json"
check "the last line of stderr is valid JSON" python3 -m json.tool "$TRASH/json"
! grep -q "^Gate (" "$TRASH/err"
ok $? "and no text summary"
is "$(wc -l <"$TRASH/err")" 1 "one line in all"

# q EXPR: EXPR of the document j, printed by python3
q() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($1)" "$TRASH/json"; }
is "$(q 'j["exit"], j["gate"], j["outcome"]')" "0 warn fail" "exit, policy, outcome"
is "$(q 'j["series"]["revision"], j["series"]["expected"], j["series"]["present"], j["series"]["chosen"]')" \
	"1 3 3 latest" "the series chosen"
is "$(q 'j["series"]["cover"]')" "$id" "its cover letter"
is "$(q 'len(j["patches"])')" 3 "three patches"
is "$(q 'j["patches"][0]["subject"]')" "[PATCH 1/3] a: fix the pool" "a patch's subject"
is "$(q 'j["patches"][0]["result"], j["patches"][0]["attestation"]')" "warn none" \
	"its result, its attestation (unsigned)"
fx() { q "[c for c in j[\"patches\"][$1][\"checks\"] if c[\"check\"] == \"$2\"][0][\"$3\"]"; }
is "$(fx 0 fixes result)" "warn" "an 8-digit Fixes: warn"
is "$(fx 0 fixes suggestion)" "Fixes: ${add:0:12} (\"mm: add the pool\")" "the line to use suggested"
is "$(fx 0 fixes message)" "Fixes: ${add:0:8} has 8 hex digits, at least 12 are asked; use: Fixes: ${add:0:12} (\"mm: add the pool\")" "the message"
is "$(fx 0 cc-stable result)" "warn" "a released commit without Cc: stable: warn"
is "$(fx 0 signoff result)" "ok" "a check that found nothing: ok"
is "$(fx 2 signoff result)" "fail" "the author never signed off: fail"
check "with what to do" test -n "$(fx 2 signoff suggestion)"
is "$(q 'j["patches"][1]["subject"]')" '[PATCH 2/3] b: a "quoted" \ back' \
	"quotes and a backslash kept in a subject"
python3 - "$TRASH/json" <<'PY' >"$TRASH/closes"
import json, sys
j = json.load(open(sys.argv[1]))
for c in j["patches"][1]["checks"]:
    if c["check"] == "links" and "not a URL" in c["message"]:
        sys.stdout.write(c["message"])
PY
check "an escape character kept as \\u001b" grep -q $'bug "7" \\\\ \033\\[31mred' "$TRASH/closes"
# (as lore-am reads the mail: Latin-1 or U+FFFD, valid UTF-8 either way)
check "bytes that are no UTF-8 kept as valid UTF-8" grep -qE "'bug .*red.{2} end'" "$TRASH/closes"
check "in the raw text, no control byte" eval "! LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <'$TRASH/json')"

# hardfail: exit 3 in the document, nothing on stdout
git config --global lore-am.gate hardfail
"$LORE_AM" --format=json -m "$TRASH/s.mbox" "$id" >"$TRASH/out" 2>"$TRASH/err"
is $? 3 "hardfail: exit 3"
tail -n 1 "$TRASH/err" >"$TRASH/json"
is "$(q 'j["exit"], j["gate"], j["outcome"]')" "3 hardfail fail" "and the JSON says it"
is "$(wc -c <"$TRASH/out")" 0 "nothing written"
git config --global --unset lore-am.gate

# off: no check, the series and attestation still said
git config --global lore-am.gate off
"$LORE_AM" --format=json -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/err"
tail -n 1 "$TRASH/err" >"$TRASH/json"
is "$(q 'j["gate"], j["outcome"], len(j["patches"][0]["checks"])')" "off None 0" \
	"gate off: patches without checks"
git config --global --unset lore-am.gate

"$LORE_AM" --format=xml -m "$TRASH/s.mbox" "$id" >/dev/null 2>"$TRASH/err"
is $? 2 "--format that is neither: usage error"
check "named" grep -qx "lore-am: --format 'xml' is not text or json" "$TRASH/err"
