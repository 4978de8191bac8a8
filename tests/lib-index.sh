# lib-index.sh - helpers for the tests of the -m index (source after lib.sh).
#
#   idx_db PATH
#       The index file lore-am keeps for the mailbox PATH.
#   idx_cmp OUT IN ARGS...
#       Run lore-am ARGS (stdin from the file IN) with its index, then with
#       --no-index; true when stdout, stderr and the exit status agree.
#       Leaves OUT.i/OUT.ie and OUT.p/OUT.pe; a difference is shown.
#   idx_sql PATH SQL
#       Run SQL on the index of PATH with the sqlite3 shell.
#   idx_small_thread MD
#       lib-thread.sh's small_thread in $TRASH/s, and its messages in the
#       maildir MD (cur/NAME.host:2,S, read).

# the test folders are small: index them all the same (a mailbox under
# lore-am.index-min-messages is read whole, without its index)
git config --global lore-am.index-min-messages 0

idx_db() {
	_real=$(realpath "$1") || return 1
	printf '%s/lore-am/index/%s.sqlite3\n' "$XDG_CACHE_HOME" \
		"$(printf %s "$_real" | sha256sum | cut -d' ' -f1)"
}

idx_cmp() {
	_o=$1 _in=$2; shift 2
	"${IDX_AM:-$LORE_AM}" "$@" <"$_in" >"$_o.i" 2>"$_o.ie"
	_ri=$?
	"${IDX_AM:-$LORE_AM}" --no-index "$@" <"$_in" >"$_o.p" 2>"$_o.pe"
	_rp=$?
	if [ "$_ri" = "$_rp" ] && cmp -s "$_o.i" "$_o.p" &&
	   cmp -s "$_o.ie" "$_o.pe"; then
		return 0
	fi
	echo "# differs: $* <$_in (exit $_ri indexed, $_rp plain)"
	diff "$_o.p" "$_o.i" | head -8 | sed 's/^/#   out: /'
	diff "$_o.pe" "$_o.ie" | head -8 | sed 's/^/#   err: /'
	return 1
}

idx_sql() {
	sqlite3 "$(idx_db "$1")" "$2"
}

idx_small_thread() {
	small_thread "$TRASH/s"
	mkdir -p "$1/cur" "$1/new" "$1/tmp"
	for _f in "$TRASH"/s/*.eml; do
		cp "$_f" "$1/cur/$(basename "$_f" .eml).host:2,S"
	done
}
