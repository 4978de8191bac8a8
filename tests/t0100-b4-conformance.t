#!/bin/bash
# b4's own follow-up trailer fixtures: lore-am's output must be byte-identical
# to the expected file for every case of cases.tsv.
. "$(dirname "$0")/lib.sh"

CONF=$SHARED_DIR/conformance/b4
[ -f "$CONF/cases.tsv" ] || skip_all_no_data "b4 conformance fixtures not present"

git config --global user.name "Test Override"
git config --global user.email "test-override@example.com"

cases=$(grep -v '^#' "$CONF/cases.tsv" | grep -c .)
plan "$cases"

# the loop runs in this shell, not in a pipeline's subshell, so that ok()
# counts its failures into the file's exit status
while IFS= read -r line; do
	input=$(printf '%s' "$line" | cut -f1)
	opts=$(printf '%s' "$line" | cut -f2)
	expected=$(printf '%s' "$line" | cut -f3)
	flags=() cfg=()
	rest=$opts
	# flags come first; KEY=VALUE settings (which may hold spaces) follow
	while [ -n "$rest" ]; do
		case $rest in
		-*) f=${rest%% *}; flags+=("$f")
		    [ "$f" = "$rest" ] && rest= || rest=${rest#* } ;;
		*=*) key=${rest%%=*}; cfg+=(-c "b4.${key//-trailer/trailer}=${rest#*=}")
		     rest= ;;
		*) rest= ;;
		esac
	done
	# link-trailer is b4.linktrailermask; the others keep their names
	cfg=("${cfg[@]/b4.linktrailer=/b4.linktrailermask=}")
	cfg=("${cfg[@]/b4.trailerorder=/b4.trailer-order=}")
	cfg=("${cfg[@]/b4.trailers-ignore-from=/b4.trailers-ignore-from=}")
	n=0; env=()
	for ((i = 1; i < ${#cfg[@]}; i += 2)); do
		kv=${cfg[$i]}
		env+=("GIT_CONFIG_KEY_$n=${kv%%=*}" "GIT_CONFIG_VALUE_$n=${kv#*=}")
		n=$((n + 1))
	done
	env GIT_CONFIG_COUNT=$n "${env[@]}" \
		"$LORE_AM" -q "${flags[@]}" -m "$CONF/$input" </dev/null \
		>"$TRASH/out" 2>"$TRASH/err"
	rc=$?
	if [ $rc -eq 0 ] && cmp -s "$TRASH/out" "$CONF/$expected"; then
		ok 0 "$input $opts"
	else
		ok 1 "$input $opts (exit $rc)"
		diff -u "$CONF/$expected" "$TRASH/out" | head -30 | sed 's/^/# /'
		sed 's/^/# stderr: /' "$TRASH/err" | head -5
	fi
done < <(grep -v '^#' "$CONF/cases.tsv" | grep .)
